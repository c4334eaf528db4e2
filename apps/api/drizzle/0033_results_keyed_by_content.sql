CREATE TABLE "content_results" (
	"user_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"context_key" text NOT NULL,
	"result" jsonb NOT NULL,
	"origin" text NOT NULL,
	"needs_words" boolean DEFAULT false NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_results_user_id_sha256_context_key_pk" PRIMARY KEY("user_id","sha256","context_key")
);
--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "content_sha256" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "content_context_key" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "reused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "content_results" ADD CONSTRAINT "content_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_results_user_id_updated_at_idx" ON "content_results" USING btree ("user_id","updated_at");