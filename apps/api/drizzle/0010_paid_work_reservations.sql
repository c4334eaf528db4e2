ALTER TABLE "credit_reservations" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_reservations" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_reservations" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "credit_reservations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "credit_reservations_open_lease_idx" ON "credit_reservations" USING btree ("lease_expires_at") WHERE "credit_reservations"."status" = 'open' and "credit_reservations"."lease_expires_at" is not null;