ALTER TABLE "library_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written (ADR 032): the triggers of 0017 now also bump the version on every change that
-- adds, removes or moves a row in or out of a user's listing.
CREATE OR REPLACE FUNCTION "library_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO library_counts AS c (user_id, images, needs_review, version)
      SELECT user_id, count(*), count(*) FILTER (WHERE needs_review), 1 FROM new_rows GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review,
          version = c.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE library_counts AS c
      SET images = c.images - d.images, needs_review = c.needs_review - d.needs_review,
          version = c.version + 1
      FROM (SELECT user_id, count(*) AS images, count(*) FILTER (WHERE needs_review) AS needs_review
            FROM old_rows GROUP BY user_id) AS d
      WHERE c.user_id = d.user_id;
  ELSE
    INSERT INTO library_counts AS c (user_id, images, needs_review, version)
      SELECT user_id, sum(images), sum(needs_review), 1
      FROM (SELECT n.user_id, 1 AS images, n.needs_review::int AS needs_review FROM new_rows AS n
            LEFT JOIN old_rows AS o ON o.id = n.id
            WHERE o.id IS NULL OR o.user_id <> n.user_id OR o.needs_review <> n.needs_review
              OR o.created_at <> n.created_at
            UNION ALL
            SELECT o.user_id, -1, -(o.needs_review::int) FROM old_rows AS o
            LEFT JOIN new_rows AS n ON n.id = o.id
            WHERE n.id IS NULL OR o.user_id <> n.user_id OR o.needs_review <> n.needs_review
              OR o.created_at <> n.created_at) AS d
      GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE
      SET images = c.images + excluded.images, needs_review = c.needs_review + excluded.needs_review,
          version = c.version + 1;
  END IF;
  RETURN NULL;
END
$$;
