ALTER TABLE "integration_changes" ADD COLUMN "writing" jsonb;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "failures" jsonb;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "publish_request" jsonb;