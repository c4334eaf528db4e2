ALTER TABLE "library_images" ADD COLUMN "confidence" real;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "reasons" jsonb;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "needs_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "library_images_needs_review_idx" ON "library_images" USING btree ("user_id","created_at") WHERE "library_images"."needs_review";