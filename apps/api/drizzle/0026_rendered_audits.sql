ALTER TABLE "audit_images" ADD COLUMN "screenshot_key" text;--> statement-breakpoint
ALTER TABLE "audit_pages" ADD COLUMN "rendered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audits" ADD COLUMN "render" text DEFAULT 'auto' NOT NULL;