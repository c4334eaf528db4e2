ALTER TABLE "integration_changes" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "integration_changes" ADD COLUMN "reasons" jsonb;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "progress" jsonb;