ALTER TABLE "integrations" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "lease_until" timestamp with time zone;