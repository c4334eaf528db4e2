ALTER TABLE "audit_images" ADD COLUMN "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "audit_images" ADD COLUMN "thumbnail_url" text;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "thumbnail_url" text;