ALTER TABLE "audit_pages" ADD COLUMN "hidden_images" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_pages" ADD COLUMN "announcements" jsonb;