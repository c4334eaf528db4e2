ALTER TABLE "library_images" ADD COLUMN "file_name" text;--> statement-breakpoint
-- Hand-written: uploads stored before this column keep the name their batch was given (in
-- context), cleaned as lib/file-names.ts cleans new ones: spaces collapsed, no control or bidi
-- character, no path, at most 120 characters.
UPDATE "library_images"
  SET "file_name" = nullif(left(btrim(regexp_replace(regexp_replace(
    regexp_replace("context"->>'fileName', '\s+', ' ', 'g'),
    '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]', '', 'g'),
    '^.*[/\\]', '')), 120), '')
  WHERE "file_key" IS NOT NULL AND "context"->>'fileName' IS NOT NULL;
