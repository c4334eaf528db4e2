ALTER TABLE "generation_items" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "keywords" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "default_language" text;