import type { Announcement } from '@altwise/contracts/audit';
import type { AuditImageElement, AuditNameSource } from '@altwise/contracts/audit-problems';
import { altOrigins } from '@altwise/contracts/provenance';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AltTextReason } from '../../engines/types.ts';
import { generationItems } from './generation-items.ts';
import { libraryImages } from './library-images.ts';
import { users } from './users.ts';

export const auditScopes = ['page', 'site', 'sitemap'] as const;
export type AuditScope = (typeof auditScopes)[number];

export const auditStatuses = ['queued', 'running', 'completed', 'failed'] as const;

/** When an audit renders a page in the browser (ADR 061). */
export const auditRenderModes = ['auto', 'always', 'never'] as const;
export type AuditRenderMode = (typeof auditRenderModes)[number];
export type AuditStatus = (typeof auditStatuses)[number];

/** Verdict counts of a finished audit. */
export type AuditCounts = { pass: number; fail: number; warning: number; decorative: number };

/**
 * One alt-text audit of a page, a site or a sitemap (ADR 026), run by the `audit.run` job.
 * `pages_scanned` and `images_found` move while it runs; `score`, `counts` and `problems` are written
 * when it completes. `notices` says in words what the audit could not do (robots.txt, a sitemap
 * that is not XML); `error` why it failed.
 */
export const audits = pgTable(
  'audits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    scope: text('scope', { enum: auditScopes }).notNull(),
    maxPages: integer('max_pages').notNull(),
    /** `auto`: render a page whose HTML has no images but has scripts; `always`; `never` (ADR 061). */
    render: text('render', { enum: auditRenderModes }).notNull().default('auto'),
    status: text('status', { enum: auditStatuses }).notNull().default('queued'),
    error: text('error'),
    notices: jsonb('notices').$type<string[]>().notNull().default([]),
    /** Set once the pages to visit first (the start page, or the sitemap's) are stored. */
    seededAt: timestamp('seeded_at', { withTimezone: true }),
    pagesScanned: integer('pages_scanned').notNull().default(0),
    imagesFound: integer('images_found').notNull().default(0),
    score: real('score'),
    counts: jsonb('counts').$type<AuditCounts>(),
    problems: jsonb('problems').$type<Record<string, number>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('audits_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('audits_unfinished_idx').on(table.createdAt).where(sql`${table.finishedAt} is null`),
    check('audits_max_pages_in_range', sql`${table.maxPages} between 1 and 500`),
  ],
);

export const auditPageStatuses = ['pending', 'fetching', 'scanned', 'skipped', 'failed'] as const;
export type AuditPageStatus = (typeof auditPageStatuses)[number];

/**
 * A page an audit visits, once: unique per audit and URL, so a resumed audit neither fetches a
 * scanned page again nor stores it twice. `fetching` rows carry the worker's claim; a claim older
 * than the lease belongs to a stopped process and is taken over. `note` says why a page was
 * skipped or failed.
 */
export const auditPages = pgTable(
  'audit_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    auditId: uuid('audit_id')
      .notNull()
      .references(() => audits.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Links followed from the start page to reach it (breadth first: lower depths go first). */
    depth: integer('depth').notNull().default(0),
    status: text('status', { enum: auditPageStatuses }).notNull().default('pending'),
    note: text('note'),
    /** True when the page was read as the browser rendered it, not as its HTML was sent (ADR 061). */
    rendered: boolean('rendered').notNull().default(false),
    /** Image-like elements of the scanned page that were hidden: counted, not audited. */
    hiddenImages: integer('hidden_images').notNull().default(0),
    /** The scanned page's screen-reader preview; null until it is scanned. */
    announcements: jsonb('announcements').$type<AuditPageAnnouncementsRecord>(),
    claimId: uuid('claim_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('audit_pages_audit_id_url_idx').on(table.auditId, table.url),
    index('audit_pages_audit_id_status_idx').on(table.auditId, table.status),
  ],
);

/** A page's screen-reader preview as stored: the announcements, and whether more were cut. */
export type AuditPageAnnouncementsRecord = { items: Omit<Announcement, 'spoken'>[]; truncated: boolean };

/** What the page says about one image, as the checks read it (rules/checks.ts). */
export type AuditImageFactsRecord = {
  element: AuditImageElement;
  /** The accessible name; absent on images audited before names were computed. */
  name?: string | null;
  nameSource?: AuditNameSource;
  ariaLabel?: string;
  linkTarget?: string;
  linkText?: string;
  caption?: string;
  adjacentText?: string;
  heading?: string;
  width?: number;
  height?: number;
  /** ADR 060: the title attribute, class/id hints, the banner, a list bullet, a text link beside it. */
  title?: string;
  classNames?: string;
  inHeader?: boolean;
  listMarker?: boolean;
  besideTextLink?: string;
  /** The row of images (rating stars) it stands in: its place and every image's file name. */
  imageRow?: { position: number; files: string[] };
  /** It looks like the site's own logo (in the banner, "logo" in its file name, class or id), and the site's name (og:site_name) when the page gives one. */
  siteLogo?: boolean;
  siteName?: string;
  /** The page's `<html lang>` (ADR 069): the language its alt text is written in. */
  language?: string;
  /**
   * What the pixel check saw (ADR 037), set on every image of the audit with this src once it has
   * looked: `{}` when the pixels gave no evidence (photo without text, fetch or decode failed).
   */
  pixels?: { informative?: boolean; text?: string; confidence?: number };
};

export type AuditImageProblemRecord = { code: string; severity: string; wcag: string[]; message: string };

export const auditReviewStates = ['pending', 'accepted', 'rejected', 'edited'] as const;

/** What the engine said with a suggestion, kept for the library row an accept lands. */
export type AuditSuggestionDetails = {
  engine: string | null;
  model: string | null;
  confidence: number | null;
  reasons: AltTextReason[] | null;
  needsReview: boolean;
  /** The engine found nothing to stand behind: the suggestion is '' and a person's words are needed (ADR 068). */
  needsWords?: boolean;
  needsWordsReason?: string | null;
  /** A person marked the image decorative on purpose: its '' alt may go live (ADR 068). */
  decorative?: boolean;
};
export type AuditReviewState = (typeof auditReviewStates)[number];

/**
 * One image of one audited page, at its position in the page; its facts, verdict and problems.
 * `suggestion` and `review_state` stay null until a fix writes one (points 3 and 4, ADR
 * 030): `generation_item_id` is the image's latest fix (an item of a batch with source `audit`,
 * whose result lands here, not in the library); `library_image_id` the library row an accept or
 * edit landed.
 */
export const auditImages = pgTable(
  'audit_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    auditId: uuid('audit_id')
      .notNull()
      .references(() => audits.id, { onDelete: 'cascade' }),
    pageId: uuid('page_id')
      .notNull()
      .references(() => auditPages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    pageUrl: text('page_url').notNull(),
    src: text('src').notNull(),
    /** The alt attribute as written; null when the element has none. */
    alt: text('alt'),
    role: text('role', { enum: ['content', 'link', 'button', 'figure'] }).notNull(),
    facts: jsonb('facts').$type<AuditImageFactsRecord>().notNull(),
    verdict: text('verdict', { enum: ['pass', 'fail', 'warning', 'decorative'] }).notNull(),
    problems: jsonb('problems').$type<AuditImageProblemRecord[]>().notNull().default([]),
    suggestion: text('suggestion'),
    /** The suggestion's long description (a chart's labels and values, ADR 050); null for most images. */
    longDescription: text('long_description'),
    reviewState: text('review_state', { enum: auditReviewStates }),
    /**
     * Where the suggestion came from (ADR 057): ai when an engine wrote it, human or embedded when it
     * kept the page's or the file's alt word for word, ai-reviewed once accepted unchanged, ai-edited
     * once saved after an edit; null while there is no suggestion.
     */
    origin: text('origin', { enum: altOrigins }),
    suggestionDetails: jsonb('suggestion_details').$type<AuditSuggestionDetails>(),
    generationItemId: uuid('generation_item_id').references(() => generationItems.id, {
      onDelete: 'set null',
    }),
    libraryImageId: uuid('library_image_id').references(() => libraryImages.id, { onDelete: 'set null' }),
    /**
     * The stored preview of `src` (ADR 051), shared by the audit's images of that address: its
     * storage key and URL (the file is the audit owner's and goes with the account); null until the
     * pixel check or a fix held the image's bytes.
     */
    thumbnailKey: text('thumbnail_key'),
    thumbnailUrl: text('thumbnail_url'),
    /**
     * The image as the rendered page showed it (ADR 061): the storage key of an owner-only file
     * (never served by /files), served by GET /audits/{id}/images/{imageId}/screenshot; null when
     * the page was not rendered or the image was not on screen.
     */
    screenshotKey: text('screenshot_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('audit_images_page_id_position_idx').on(table.pageId, table.position),
    index('audit_images_audit_id_verdict_idx').on(table.auditId, table.verdict),
    index('audit_images_generation_item_id_idx').on(table.generationItemId),
  ],
);

export type Audit = typeof audits.$inferSelect;
export type AuditPage = typeof auditPages.$inferSelect;
export type AuditImage = typeof auditImages.$inferSelect;
export type NewAuditImage = typeof auditImages.$inferInsert;
