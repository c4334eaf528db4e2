CREATE TABLE "audit_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"audit_id" uuid NOT NULL,
	"page_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"page_url" text NOT NULL,
	"src" text NOT NULL,
	"alt" text,
	"role" text NOT NULL,
	"facts" jsonb NOT NULL,
	"verdict" text NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"suggestion" text,
	"review_state" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"audit_id" uuid NOT NULL,
	"url" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text,
	"claim_id" uuid,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scanned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"scope" text NOT NULL,
	"max_pages" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"notices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seeded_at" timestamp with time zone,
	"pages_scanned" integer DEFAULT 0 NOT NULL,
	"images_found" integer DEFAULT 0 NOT NULL,
	"score" real,
	"counts" jsonb,
	"problems" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "audits_max_pages_in_range" CHECK ("audits"."max_pages" between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "audit_images" ADD CONSTRAINT "audit_images_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_images" ADD CONSTRAINT "audit_images_page_id_audit_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."audit_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_pages" ADD CONSTRAINT "audit_pages_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audits" ADD CONSTRAINT "audits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_images_page_id_position_idx" ON "audit_images" USING btree ("page_id","position");--> statement-breakpoint
CREATE INDEX "audit_images_audit_id_verdict_idx" ON "audit_images" USING btree ("audit_id","verdict");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_pages_audit_id_url_idx" ON "audit_pages" USING btree ("audit_id","url");--> statement-breakpoint
CREATE INDEX "audit_pages_audit_id_status_idx" ON "audit_pages" USING btree ("audit_id","status");--> statement-breakpoint
CREATE INDEX "audits_user_id_created_at_idx" ON "audits" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "audits_unfinished_idx" ON "audits" USING btree ("created_at") WHERE "audits"."finished_at" is null;