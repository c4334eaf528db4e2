ALTER TABLE "audit_images" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "library_images" ADD COLUMN "origin" text DEFAULT 'ai' NOT NULL;--> statement-breakpoint
-- Backfill (ADR 057): a person's edit in the library was stored as engine 'manual' over an engine's text.
UPDATE "library_images" SET "origin" = 'ai-edited' WHERE "engine" = 'manual';--> statement-breakpoint
-- Suggestions already written: an engine's, then accepted unchanged or saved after an edit.
UPDATE "audit_images" SET "origin" = CASE "review_state" WHEN 'accepted' THEN 'ai-reviewed' WHEN 'edited' THEN 'ai-edited' ELSE 'ai' END WHERE "suggestion" IS NOT NULL;--> statement-breakpoint
-- The library rows those reviews landed carry the same origin.
UPDATE "library_images" l SET "origin" = a."origin" FROM "audit_images" a WHERE a."library_image_id" = l."id" AND a."review_state" IN ('accepted', 'edited');
