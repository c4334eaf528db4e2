CREATE TABLE "integration_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid NOT NULL,
	"placement_id" uuid NOT NULL,
	"media_id" integer NOT NULL,
	"post_id" integer,
	"field" text NOT NULL,
	"before" text NOT NULL,
	"after" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"published_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_media" (
	"integration_id" uuid NOT NULL,
	"media_id" integer NOT NULL,
	"source_url" text NOT NULL,
	"urls" jsonb NOT NULL,
	"alt_text" text NOT NULL,
	"title" text NOT NULL,
	"caption" text NOT NULL,
	"description" text NOT NULL,
	CONSTRAINT "integration_media_integration_id_media_id_pk" PRIMARY KEY("integration_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "integration_placements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid NOT NULL,
	"audit_image_id" uuid NOT NULL,
	"media_id" integer NOT NULL,
	"post_id" integer,
	"occurrence" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_posts" (
	"integration_id" uuid NOT NULL,
	"post_id" integer NOT NULL,
	"post_type" text NOT NULL,
	"title" text NOT NULL,
	"link" text NOT NULL,
	"modified" text NOT NULL,
	"rendered" text NOT NULL,
	"images" jsonb NOT NULL,
	CONSTRAINT "integration_posts_integration_id_post_id_pk" PRIMARY KEY("integration_id","post_id")
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"site_url" text NOT NULL,
	"rest_style" text NOT NULL,
	"username" text NOT NULL,
	"secret" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"error" text,
	"notice" text,
	"import_cursor" jsonb,
	"media_count" integer,
	"imported" integer DEFAULT 0 NOT NULL,
	"placements" integer DEFAULT 0 NOT NULL,
	"audit_id" uuid,
	"last_import_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_changes" ADD CONSTRAINT "integration_changes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_changes" ADD CONSTRAINT "integration_changes_placement_id_integration_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."integration_placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_media" ADD CONSTRAINT "integration_media_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_placements" ADD CONSTRAINT "integration_placements_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_posts" ADD CONSTRAINT "integration_posts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_changes_live_idx" ON "integration_changes" USING btree ("placement_id") WHERE "integration_changes"."status" <> 'undone';--> statement-breakpoint
CREATE INDEX "integration_changes_integration_idx" ON "integration_changes" USING btree ("integration_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_placements_audit_image_idx" ON "integration_placements" USING btree ("integration_id","audit_image_id");--> statement-breakpoint
CREATE INDEX "integrations_user_id_idx" ON "integrations" USING btree ("user_id","created_at");