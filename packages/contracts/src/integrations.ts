import { z } from 'zod';
import { SCRAPE_URL_MAX_CHARS } from './scrape.ts';

/**
 * Integrations (ADR 056): a WordPress site connected with an application password, its
 * media library imported as a normal audit, approved alt text published back and undone.
 */

/** Integrations one user may connect. */
export const MAX_INTEGRATIONS = 20;
/** Most images one publish call names; most changes one undo names. */
export const MAX_PUBLISH_IDS = 1000;

export const integrationStatusSchema = z.enum(['connected', 'importing', 'imported', 'publishing', 'failed']);
export type IntegrationStatus = z.infer<typeof integrationStatusSchema>;

/** POST /integrations/wordpress: validates the browser's form too. */
export const connectWordPressRequestSchema = z.strictObject({
  siteUrl: z
    .string({ error: 'Please enter the site’s address' })
    .trim()
    .min(1, 'Please enter the site’s address')
    .max(
      SCRAPE_URL_MAX_CHARS,
      `The address must be at most ${SCRAPE_URL_MAX_CHARS.toLocaleString('en-US')} characters`,
    )
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid http or https address' })),
  username: z
    .string({ error: 'Please enter the WordPress user name' })
    .trim()
    .min(1, 'Please enter the WordPress user name')
    .max(200, 'The user name must be at most 200 characters'),
  applicationPassword: z
    .string({ error: 'Please enter an application password' })
    .trim()
    .min(1, 'Please enter an application password')
    .max(200, 'The application password must be at most 200 characters'),
});
export type ConnectWordPressRequest = z.input<typeof connectWordPressRequestSchema>;

export const integrationSummarySchema = z.object({
  id: z.uuid(),
  kind: z.literal('wordpress'),
  siteUrl: z.string(),
  username: z.string(),
  status: integrationStatusSchema,
  createdAt: z.string(),
});
export type IntegrationSummary = z.infer<typeof integrationSummarySchema>;

export const connectWordPressResponseSchema = integrationSummarySchema;
export const listIntegrationsResponseSchema = z.array(integrationSummarySchema);

/** GET /integrations/{id}: the import's and the last publish's progress. */
export const integrationSchema = integrationSummarySchema.extend({
  /** Image attachments in the media library, as WordPress counts them (null before an import). */
  mediaCount: z.number().int().nullable(),
  /** Attachments read so far by the current or last import. */
  imported: z.number().int(),
  /** Places (posts and pages) where an imported image is used. */
  placements: z.number().int(),
  /** The import's audit: its images, fix, review and reports go through the audit API. */
  auditId: z.uuid().nullable(),
  lastImportAt: z.string().nullable(),
  /** Why the last import or publish stopped, in words. */
  error: z.string().nullable(),
  /** What the last publish or undo did, in words. */
  notice: z.string().nullable(),
  /**
   * Each place the last publish or undo could not write (the attachment's own alt text when
   * `postId` is null, else its use in that post or page), with why in words; empty when all went.
   */
  failures: z.array(
    z.object({ mediaId: z.number().int(), postId: z.number().int().nullable(), message: z.string() }),
  ),
  /**
   * The publish or undo under way (status `publishing`), or the last one (ADR 069): places written,
   * places that failed, of all it will try; null before the first. `startedAt` is when it began
   * writing; `etaSeconds` the seconds it should still take at its pace so far (ADR 076), null before
   * the first place is done and once the run has ended.
   */
  progress: z
    .object({
      written: z.number().int(),
      failed: z.number().int(),
      total: z.number().int(),
      startedAt: z.string().nullable(),
      etaSeconds: z.number().int().nullable(),
    })
    .nullable(),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationParamsSchema = z.object({ id: z.uuid({ error: 'Not a valid integration id' }) });

export const startIntegrationJobResponseSchema = z.object({ id: z.uuid(), status: integrationStatusSchema });

/** POST /integrations/{id}/publish: the audit images to publish; all approved when left out. */
export const publishRequestSchema = z
  .strictObject({
    imageIds: z
      .array(z.uuid({ error: 'Each image id must be an id of the import’s audit' }))
      .min(1, 'Name at least one image, or leave imageIds out to publish every approved one')
      .max(MAX_PUBLISH_IDS, `At most ${MAX_PUBLISH_IDS} images at once`)
      .optional(),
  })
  .default({});

/** Why an approved alt text is held back from a publish (ADR 067's codes, ADR 069). */
export const unpublishableCodeSchema = z.enum([
  'needs-words',
  'kind-and-tone',
  'file-name',
  'title-prefix',
  'ungrounded',
]);

/** An approved image a publish leaves out because its words may not go live, with why in words. */
export const heldBackImageSchema = z.object({
  imageId: z.uuid(),
  mediaId: z.number().int(),
  /** The attachment's file name, as a person knows the image. */
  fileName: z.string(),
  postId: z.number().int().nullable(),
  postTitle: z.string().nullable(),
  altText: z.string(),
  code: unpublishableCodeSchema,
  message: z.string(),
});
export type HeldBackImage = z.infer<typeof heldBackImageSchema>;

/** One place a publish would write: the attachment's alt_text (`postId` null) or its use in a post. */
export const publishPreviewItemSchema = z.object({
  imageId: z.uuid(),
  mediaId: z.number().int(),
  fileName: z.string(),
  /** The image's address on the site (its thumbnail in the list). */
  src: z.string(),
  postId: z.number().int().nullable(),
  /** The post or page's title; null for the media library's own alt text. */
  postTitle: z.string().nullable(),
  field: z.enum(['alt_text', 'content']),
  /** The alt as the import read it ('' when none). */
  before: z.string(),
  after: z.string(),
});
export type PublishPreviewItem = z.infer<typeof publishPreviewItemSchema>;

/** POST /integrations/{id}/publish/preview: what a publish with the same body would write, and what it leaves out. */
export const publishPreviewResponseSchema = z.object({
  items: z.array(publishPreviewItemSchema),
  heldBack: z.array(heldBackImageSchema),
  /** Approved images already on the site with the same words: nothing to write. */
  unchanged: z.number().int(),
});
export type PublishPreviewResponse = z.infer<typeof publishPreviewResponseSchema>;

export const undoRequestSchema = z.strictObject({
  changeIds: z
    .array(z.uuid({ error: 'Each change id must be an id from GET /integrations/{id}/changes' }))
    .min(1, 'Name at least one change to undo')
    .max(MAX_PUBLISH_IDS, `At most ${MAX_PUBLISH_IDS} changes at once`),
});

export const integrationChangeFieldSchema = z.enum(['alt_text', 'content']);

/** One write to WordPress, with the value it replaced. */
export const integrationChangeSchema = z.object({
  id: z.uuid(),
  mediaId: z.number().int(),
  /** The post or page whose content was changed; absent for the attachment's alt_text. */
  postId: z.number().int().optional(),
  postTitle: z.string().optional(),
  /** The attachment's file name and address (its thumbnail), while the import still knows it. */
  fileName: z.string().optional(),
  src: z.string().optional(),
  /**
   * A small preview of the picture stored by this app (served at `/files/…`, ADR 051), which loads
   * where the site's own address may not (an http site); null when none was made.
   */
  thumbnailUrl: z.string().nullable(),
  field: integrationChangeFieldSchema,
  before: z.string(),
  after: z.string(),
  publishedAt: z.string(),
  undoneAt: z.string().optional(),
});
export type IntegrationChange = z.infer<typeof integrationChangeSchema>;

export const listChangesResponseSchema = z.array(integrationChangeSchema);
