-- Payments outlive the account that made them (ADR 022): the row keeps amount, date and product, and
-- loses the person.
ALTER TABLE "payments" DROP CONSTRAINT "payments_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
-- Stored files are tied to their owner. An owner id that is not an account's id cannot be kept
-- under the foreign key; it becomes unknown (null) and may be derived below.
UPDATE "stored_files" SET "owner_id" = NULL
WHERE "owner_id" IS NOT NULL
  AND ("owner_id" !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       OR NOT EXISTS (SELECT 1 FROM "users" WHERE "users"."id"::text = lower("stored_files"."owner_id")));--> statement-breakpoint
ALTER TABLE "stored_files" ALTER COLUMN "owner_id" SET DATA TYPE uuid USING lower("owner_id")::uuid;--> statement-breakpoint
-- Files saved without an owner: the library image or the batch image that names the file tells whose it is.
UPDATE "stored_files" SET "owner_id" = "library_images"."user_id"
FROM "library_images"
WHERE "stored_files"."owner_id" IS NULL AND "library_images"."file_key" = "stored_files"."key";--> statement-breakpoint
UPDATE "stored_files" SET "owner_id" = "generation_batches"."user_id"
FROM "generation_items" JOIN "generation_batches" ON "generation_batches"."id" = "generation_items"."batch_id"
WHERE "stored_files"."owner_id" IS NULL AND "generation_items"."file_key" = "stored_files"."key";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
