ALTER TABLE "library_counts" ADD COLUMN "newest_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "library_counts" ADD COLUMN "reorder_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written (ADR 040, addendum 2026-11-24): the triggers of 0017/0018 also keep newest_at, an
-- upper bound of the user's newest created_at, and bump reorder_version on every change that is not
-- an insert of rows all newer than newest_at (which land at the newest end of every listing): an
-- insert at or before it, any delete, any update that moves a row (flag, created_at, user). While
-- reorder_version stays, a cached boundary key is the same row, as many rows further from the newest
-- end as its listing has grown. The counts row is still changed by one UPDATE or upsert, so
-- concurrent writers for a user serialise on it and each compares with the last committed newest_at.
CREATE OR REPLACE FUNCTION "library_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH d AS (
      SELECT user_id, count(*) AS images, count(*) FILTER (WHERE needs_review) AS needs_review,
             min(created_at) AS oldest_at, max(created_at) AS newest_at
      FROM new_rows GROUP BY user_id)
    INSERT INTO library_counts AS c (user_id, images, needs_review, version, newest_at)
      SELECT user_id, images, needs_review, 1, newest_at FROM d
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review,
          version = c.version + 1,
          newest_at = greatest(c.newest_at, excluded.newest_at),
          reorder_version = c.reorder_version
            + (SELECT coalesce(d.oldest_at <= c.newest_at, false)::int FROM d WHERE d.user_id = c.user_id);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE library_counts AS c
      SET images = c.images - d.images, needs_review = c.needs_review - d.needs_review,
          version = c.version + 1, reorder_version = c.reorder_version + 1
      FROM (SELECT user_id, count(*) AS images, count(*) FILTER (WHERE needs_review) AS needs_review
            FROM old_rows GROUP BY user_id) AS d
      WHERE c.user_id = d.user_id;
  ELSE
    INSERT INTO library_counts AS c (user_id, images, needs_review, version, newest_at, reorder_version)
      SELECT user_id, sum(images), sum(needs_review), 1, max(at), 1
      FROM (SELECT n.user_id, 1 AS images, n.needs_review::int AS needs_review, n.created_at AS at
            FROM new_rows AS n
            LEFT JOIN old_rows AS o ON o.id = n.id
            WHERE o.id IS NULL OR o.user_id <> n.user_id OR o.needs_review <> n.needs_review
              OR o.created_at <> n.created_at
            UNION ALL
            SELECT o.user_id, -1, -(o.needs_review::int), NULL FROM old_rows AS o
            LEFT JOIN new_rows AS n ON n.id = o.id
            WHERE n.id IS NULL OR o.user_id <> n.user_id OR o.needs_review <> n.needs_review
              OR o.created_at <> n.created_at) AS d
      GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review,
          version = c.version + 1,
          newest_at = greatest(c.newest_at, excluded.newest_at),
          reorder_version = c.reorder_version + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
UPDATE "library_counts" AS c SET "newest_at" = m."newest_at"
  FROM (SELECT "user_id", max("created_at") AS "newest_at" FROM "library_images" GROUP BY "user_id") AS m
  WHERE c."user_id" = m."user_id";
