import { altOrigins } from '@altwise/contracts/provenance';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { audits } from './audits.ts';
import { users } from './users.ts';

export const integrationStatuses = ['connected', 'importing', 'imported', 'publishing', 'failed'] as const;
export type IntegrationStatusValue = (typeof integrationStatuses)[number];

/** Where an import is: the stage it works on and the next page of that stage (ADR 056). */
export type ImportCursor = {
  stage: 'media' | 'posts' | 'pages' | 'audit' | 'done';
  page: number;
  /** The id the import's audit gets, chosen when the import starts. */
  auditId: string;
};

/** The value a live change is being rewritten to: new approved words, or its `before` for Undo. */
export type ChangeWrite = { value: string; undo?: true };

/** A place a publish or undo could not write: the attachment itself (`postId` null) or its use in a post. */
export type PublishFailure = { mediaId: number; postId: number | null; message: string };

/** How far the publish or undo under way is (ADR 069): places written, failed, of all it will try. */
/** A publish's or undo's tally; `startedAt` (ISO) when it began writing, absent on runs before ADR 076. */
export type PublishProgress = { written: number; failed: number; total: number; startedAt?: string };

/** What a publish or undo run was asked to do, kept so a process that starts again resumes it. */
export type PublishRequest = { imageIds?: string[]; undo?: string[] };

/**
 * A connected WordPress site (ADR 056). The application password is kept only as
 * AES-256-GCM ciphertext (`secret`), bound to the row's id; it is never returned.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['wordpress'] }).notNull(),
    siteUrl: text('site_url').notNull(),
    /** `wp-json` (pretty links) or `rest_route` (plain links): how this site's REST API is reached. */
    restStyle: text('rest_style', { enum: ['wp-json', 'rest_route'] }).notNull(),
    username: text('username').notNull(),
    secret: text('secret').notNull(),
    status: text('status', { enum: integrationStatuses }).notNull().default('connected'),
    error: text('error'),
    notice: text('notice'),
    importCursor: jsonb('import_cursor').$type<ImportCursor>(),
    /** The places the last publish or undo could not write, with why (at most 1000). */
    failures: jsonb('failures').$type<PublishFailure[]>(),
    /** The publish or undo under way (status `publishing`), sent again to the queue after a crash. */
    publishRequest: jsonb('publish_request').$type<PublishRequest>(),
    /** The publish or undo under way, or the last one (ADR 069); null before the first. */
    progress: jsonb('progress').$type<PublishProgress>(),
    /**
     * The lease of the import, publish or undo running on this site (ADR 056 amendment): the run's
     * random token and until when it holds the row. A run renews it while it works and stops writing
     * once it lost it; another run waits until it has expired.
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    mediaCount: integer('media_count'),
    imported: integer('imported').notNull().default(0),
    placements: integer('placements').notNull().default(0),
    /** The audit the import lands as; chosen before it is made, so a resumed import makes one. */
    auditId: uuid('audit_id').references(() => audits.id, { onDelete: 'set null' }),
    lastImportAt: timestamp('last_import_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('integrations_user_id_idx').on(table.userId, table.createdAt)],
);

/** One image attachment of a connected site's media library, as the last import read it. */
export const integrationMedia = pgTable(
  'integration_media',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id').notNull(),
    sourceUrl: text('source_url').notNull(),
    /** The original's and every size's URL: how a post that names no block id is matched. */
    urls: jsonb('urls').$type<string[]>().notNull(),
    altText: text('alt_text').notNull(),
    title: text('title').notNull(),
    caption: text('caption').notNull(),
    description: text('description').notNull(),
  },
  (table) => [primaryKey({ columns: [table.integrationId, table.mediaId] })],
);

/** A post or page that uses imported images, as the last import read it. */
export const integrationPosts = pgTable(
  'integration_posts',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    postId: integer('post_id').notNull(),
    postType: text('post_type', { enum: ['posts', 'pages'] }).notNull(),
    title: text('title').notNull(),
    link: text('link').notNull(),
    /** `modified_gmt` when imported or last written by us: a different one means someone edited it. */
    modified: text('modified').notNull(),
    /** The rendered content, read as the audit's page. */
    rendered: text('rendered').notNull(),
    /** The attachment of each `<img>` of `content.raw` that is one of the library's, in order. */
    images: jsonb('images')
      .$type<{ mediaId: number; alt: string | null; decorative?: boolean }[]>()
      .notNull(),
  },
  (table) => [primaryKey({ columns: [table.integrationId, table.postId] })],
);

/**
 * Where an audit image of the import is published: the attachment's `alt_text` (no post) or the
 * `occurrence`-th use of the attachment in a post's content.
 */
export const integrationPlacements = pgTable(
  'integration_placements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    auditImageId: uuid('audit_image_id').notNull(),
    mediaId: integer('media_id').notNull(),
    postId: integer('post_id'),
    occurrence: integer('occurrence').notNull().default(0),
  },
  (table) => [
    uniqueIndex('integration_placements_audit_image_idx').on(table.integrationId, table.auditImageId),
  ],
);

export const integrationChangeStatuses = ['pending', 'published', 'undone'] as const;

/**
 * One write to a site, with the value it replaced (ADR 056). At most one live (pending or
 * published) change per placement: publishing the same words again writes nothing.
 */
export const integrationChanges = pgTable(
  'integration_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    placementId: uuid('placement_id')
      .notNull()
      .references(() => integrationPlacements.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id').notNull(),
    postId: integer('post_id'),
    field: text('field', { enum: ['alt_text', 'content'] }).notNull(),
    before: text('before').notNull(),
    after: text('after').notNull(),
    status: text('status', { enum: integrationChangeStatuses }).notNull().default('pending'),
    /**
     * Where the written words came from and the engine's evidence (ADR 069): a later import that finds
     * them on the site keeps this origin, not "written by a person", and judges them again.
     */
    origin: text('origin', { enum: altOrigins }),
    reasons: jsonb('reasons').$type<{ source: string; detail: string; score?: number }[]>(),
    /**
     * A write to a live change under way (new words, or `before` for Undo), stored before the call so
     * the run after a crash can tell whether WordPress made it (ADR 056).
     */
    writing: jsonb('writing').$type<ChangeWrite>(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('integration_changes_live_idx').on(table.placementId).where(sql`${table.status} <> 'undone'`),
    index('integration_changes_integration_idx').on(table.integrationId, table.createdAt),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
export type IntegrationMediaRow = typeof integrationMedia.$inferSelect;
export type IntegrationPostRow = typeof integrationPosts.$inferSelect;
export type IntegrationPlacementRow = typeof integrationPlacements.$inferSelect;
export type IntegrationChangeRow = typeof integrationChanges.$inferSelect;
