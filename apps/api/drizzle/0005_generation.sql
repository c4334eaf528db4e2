CREATE TABLE "generation_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"prompt" text,
	"page_url" text,
	"reservation_id" uuid NOT NULL,
	"total" integer NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "generation_batches_total_positive" CHECK ("generation_batches"."total" > 0),
	CONSTRAINT "generation_batches_counts_in_range" CHECK ("generation_batches"."completed" >= 0 and "generation_batches"."failed" >= 0 and "generation_batches"."completed" + "generation_batches"."failed" <= "generation_batches"."total")
);
--> statement-breakpoint
CREATE TABLE "generation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"src" text NOT NULL,
	"file_key" text,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_id" uuid,
	"claimed_at" timestamp with time zone,
	"library_image_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "file_key" text;--> statement-breakpoint
ALTER TABLE "generation_batches" ADD CONSTRAINT "generation_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_batches" ADD CONSTRAINT "generation_batches_reservation_id_credit_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."credit_reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_batch_id_generation_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."generation_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_library_image_id_library_images_id_fk" FOREIGN KEY ("library_image_id") REFERENCES "public"."library_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generation_batches_user_id_created_at_idx" ON "generation_batches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "generation_batches_unfinished_idx" ON "generation_batches" USING btree ("created_at") WHERE "generation_batches"."finished_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "generation_items_batch_id_position_idx" ON "generation_items" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "generation_items_batch_id_status_idx" ON "generation_items" USING btree ("batch_id","status");