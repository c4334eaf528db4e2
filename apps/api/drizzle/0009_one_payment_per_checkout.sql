-- One checkout is paid once (ADR 020). Renewal payments were linked to the checkout that
-- started their subscription; only the first succeeded payment of a checkout stays linked to it.
UPDATE "payments" SET "checkout_session_id" = NULL
WHERE "status" = 'succeeded' AND "checkout_session_id" IS NOT NULL
  AND "id" <> (SELECT "first"."id" FROM "payments" AS "first"
               WHERE "first"."checkout_session_id" = "payments"."checkout_session_id" AND "first"."status" = 'succeeded'
               ORDER BY "first"."created_at", "first"."id" LIMIT 1);--> statement-breakpoint
CREATE UNIQUE INDEX "payments_checkout_succeeded_key" ON "payments" USING btree ("checkout_session_id") WHERE "payments"."status" = 'succeeded';
