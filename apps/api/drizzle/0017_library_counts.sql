CREATE TABLE "library_counts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"images" integer DEFAULT 0 NOT NULL,
	"needs_review" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "library_images_user_id_created_at_idx";--> statement-breakpoint
DROP INDEX "library_images_needs_review_idx";--> statement-breakpoint
ALTER TABLE "library_counts" ADD CONSTRAINT "library_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_images_user_id_created_at_idx" ON "library_images" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "library_images_needs_review_idx" ON "library_images" USING btree ("user_id","created_at","id") WHERE "library_images"."needs_review";--> statement-breakpoint
-- Hand-written (ADR 032): triggers keep library_counts exact in the statement that changes
-- library_images, whichever code path inserts, deletes or flags rows. Statement-level with
-- transition tables, so a bulk insert or delete of many rows updates each user's row once.
CREATE FUNCTION "library_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO library_counts AS c (user_id, images, needs_review)
      SELECT user_id, count(*), count(*) FILTER (WHERE needs_review) FROM new_rows GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE library_counts AS c
      SET images = c.images - d.images, needs_review = c.needs_review - d.needs_review
      FROM (SELECT user_id, count(*) AS images, count(*) FILTER (WHERE needs_review) AS needs_review
            FROM old_rows GROUP BY user_id) AS d
      WHERE c.user_id = d.user_id;
  ELSE
    INSERT INTO library_counts AS c (user_id, images, needs_review)
      SELECT user_id, sum(images), sum(needs_review)
      FROM (SELECT user_id, 1 AS images, needs_review::int AS needs_review FROM new_rows
            UNION ALL
            SELECT user_id, -1, -(needs_review::int) FROM old_rows) AS d
      GROUP BY user_id
      HAVING sum(images) <> 0 OR sum(needs_review) <> 0
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "library_counts_insert" AFTER INSERT ON "library_images"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "library_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "library_counts_delete" AFTER DELETE ON "library_images"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "library_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "library_counts_update" AFTER UPDATE ON "library_images"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "library_counts_apply"();--> statement-breakpoint
INSERT INTO "library_counts" ("user_id", "images", "needs_review")
  SELECT "user_id", count(*), count(*) FILTER (WHERE "needs_review") FROM "library_images" GROUP BY "user_id";
