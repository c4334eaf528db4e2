CREATE TABLE "monitor_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"monitor_id" uuid NOT NULL,
	"audit_id" uuid,
	"skipped_reason" text,
	"difference" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"scope" text NOT NULL,
	"max_pages" integer NOT NULL,
	"every" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitors_max_pages_in_range" CHECK ("monitors"."max_pages" between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD CONSTRAINT "monitor_runs_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD CONSTRAINT "monitor_runs_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitor_runs_monitor_id_created_at_idx" ON "monitor_runs" USING btree ("monitor_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_runs_audit_id_idx" ON "monitor_runs" USING btree ("audit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitors_user_id_url_idx" ON "monitors" USING btree ("user_id","url");--> statement-breakpoint
CREATE INDEX "monitors_next_run_at_idx" ON "monitors" USING btree ("next_run_at");