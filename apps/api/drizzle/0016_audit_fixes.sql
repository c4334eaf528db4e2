ALTER TABLE "audit_images" ADD COLUMN "suggestion_details" jsonb;--> statement-breakpoint
ALTER TABLE "audit_images" ADD COLUMN "generation_item_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_images" ADD COLUMN "library_image_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_images" ADD CONSTRAINT "audit_images_generation_item_id_generation_items_id_fk" FOREIGN KEY ("generation_item_id") REFERENCES "public"."generation_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_images" ADD CONSTRAINT "audit_images_library_image_id_library_images_id_fk" FOREIGN KEY ("library_image_id") REFERENCES "public"."library_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_images_generation_item_id_idx" ON "audit_images" USING btree ("generation_item_id");