ALTER TABLE "audit_images" ADD COLUMN "long_description" text;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "long_description" text;