-- ADR 024: the credit reservation is the record of paid work. Finished studio jobs end their
-- reservations, a running one keeps its reservation open with the old 30-minute recovery rule, and
-- finished batches settle theirs; then the studio's own table goes. Regenerates (no record before)
-- and the browser's deducts stay open without a lease.
UPDATE "credit_reservations" r SET "status" = CASE WHEN j."status" = 'failed' THEN 'refunded' ELSE 'settled' END, "error" = j."error", "updated_at" = coalesce(j."finished_at", now()) FROM "studio_jobs" j WHERE j."reservation_id" = r."id" AND j."status" <> 'running';--> statement-breakpoint
UPDATE "credit_reservations" r SET "lease_expires_at" = j."created_at" + interval '30 minutes' FROM "studio_jobs" j WHERE j."reservation_id" = r."id" AND j."status" = 'running';--> statement-breakpoint
UPDATE "credit_reservations" r SET "status" = 'settled' FROM "generation_batches" b WHERE b."reservation_id" = r."id" AND b."finished_at" IS NOT NULL;--> statement-breakpoint
DROP TABLE "studio_jobs" CASCADE;
