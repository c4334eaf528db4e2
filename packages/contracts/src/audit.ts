import { z } from 'zod';
import {
  auditImageElementSchema,
  auditImageRoleSchema,
  auditNameSourceSchema,
  auditProblemCodeSchema,
  auditProblemSchema,
  auditVerdictSchema,
} from './audit-problems.ts';
import { longDescriptionInputSchema, longDescriptionSchema, MAX_ALT_TEXT_CHARS } from './generation.ts';
import { altTextReasonSchema } from './library.ts';
import { altOriginSchema } from './provenance.ts';
import { pageUrlSchema } from './scrape.ts';

/**
 * Alt-text audits of a page, a site or a sitemap (ADR 026): free, run in the background,
 * one verdict per image with its problems.
 */

/** Pages an audit visits when the request names no `maxPages`. */
export const DEFAULT_AUDIT_MAX_PAGES = 25;
/** Most pages one audit visits. */
export const MAX_AUDIT_PAGES = 500;
/** Audits one user may have queued or running at once. */
export const MAX_ACTIVE_AUDITS = 10;
/** Audits one user may start in 24 hours. */
export const MAX_AUDITS_PER_DAY = 50;
/** Most images one page of GET /audits/{id}/images returns. */
export const MAX_AUDIT_IMAGES_PAGE_SIZE = 500;

export const auditScopeSchema = z.enum(['page', 'site', 'sitemap'], {
  error: 'The scope must be page, site or sitemap',
});
export type AuditScope = z.infer<typeof auditScopeSchema>;

/**
 * When an audit renders a page in a headless browser before reading it (ADR 061): `auto`
 * renders a page whose HTML has no images but runs scripts, `always` every page, `never` none.
 */
export const auditRenderSchema = z.enum(['auto', 'always', 'never'], {
  error: 'render must be auto, always or never',
});
export type AuditRender = z.infer<typeof auditRenderSchema>;

/** Screenshots of images kept per rendered page (the first ones on the page, from its top). */
export const MAX_AUDIT_SCREENSHOTS_PER_PAGE = 40;

export const auditStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);
export type AuditStatus = z.infer<typeof auditStatusSchema>;

export const auditReviewStateSchema = z.enum(['pending', 'accepted', 'rejected', 'edited']);
export type AuditReviewState = z.infer<typeof auditReviewStateSchema>;

/** POST /audits. */
export const startAuditRequestSchema = z.strictObject({
  url: pageUrlSchema,
  scope: auditScopeSchema,
  maxPages: z
    .number({ error: 'maxPages must be a whole number' })
    .int('maxPages must be a whole number')
    .min(1, 'maxPages must be at least 1')
    .max(MAX_AUDIT_PAGES, `maxPages must be at most ${MAX_AUDIT_PAGES}`)
    .default(DEFAULT_AUDIT_MAX_PAGES),
  render: auditRenderSchema.default('auto'),
});
export type StartAuditRequest = z.input<typeof startAuditRequestSchema>;

export const startAuditResponseSchema = z.object({ id: z.uuid() });
export type StartAuditResponse = z.infer<typeof startAuditResponseSchema>;

export const auditParamsSchema = z.object({ id: z.uuid({ error: 'There is no such audit.' }) });

export const auditImageParamsSchema = z.object({
  id: z.uuid({ error: 'There is no such audit.' }),
  imageId: z.uuid({ error: 'There is no such image in this audit.' }),
});

/**
 * Where an image's fix stands: `generating` while its batch item is under way, `failed` when the
 * engine failed on it (its credit is back; it can be fixed again); null when no fix is under way
 * or the suggestion has arrived.
 */
export const auditFixStatusSchema = z.enum(['generating', 'failed']);
export type AuditFixStatus = z.infer<typeof auditFixStatusSchema>;

/** Each review state and how many images of the audit are in it. */
export const auditReviewCountsSchema = z.object({
  pending: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  edited: z.number().int(),
});
export type AuditReviewCounts = z.infer<typeof auditReviewCountsSchema>;

export const auditCountsSchema = z.object({
  pass: z.number().int(),
  fail: z.number().int(),
  warning: z.number().int(),
  decorative: z.number().int(),
});
export type AuditCounts = z.infer<typeof auditCountsSchema>;

export const auditPageStatusSchema = z.enum(['pending', 'fetching', 'scanned', 'skipped', 'failed']);

/** Each row of GET /audits/{id}/pages: a page the audit visits, in the order it visits them. */
export const auditPageSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  status: auditPageStatusSchema,
  /** Why the page was skipped or failed, in words; null otherwise. */
  note: z.string().nullable(),
  /** The page's audited images. */
  images: z.number().int(),
  /**
   * Images on the page that visitors and screen readers do not get (display:none,
   * visibility:hidden, the hidden attribute, aria-hidden="true" on them or around them, a zero
   * width or height): left out of the audit and counted here.
   */
  hiddenImages: z.number().int(),
  /** True when the page was read as the browser rendered it (ADR 061); false when read as its HTML was sent. */
  rendered: z.boolean(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** A page as GET /audits/{id} lists it: its address, status and whether it was rendered. */
export const auditPageVisitSchema = auditPageSchema.pick({ url: true, status: true, rendered: true });
export type AuditPageVisit = z.infer<typeof auditPageVisitSchema>;

/** Most pages GET /audits/{id} lists (an audit visits at most MAX_AUDIT_PAGES). */
export const MAX_LISTED_AUDIT_PAGES = 500;

/** GET /audits/{id}, each row of GET /audits and each event of GET /audits/{id}/events. */
export const auditSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  scope: auditScopeSchema,
  maxPages: z.number().int(),
  render: auditRenderSchema,
  /** How many of the scanned pages were read as the browser rendered them. */
  pagesRendered: z.number().int(),
  /** GET /audits/{id} and its events only: each page visited so far, in the order it was found. */
  pages: z.array(auditPageVisitSchema).optional(),
  status: auditStatusSchema,
  /** Why the audit failed, in words. */
  error: z.string().optional(),
  /** What the audit could not do, in words: pages skipped by robots.txt, not HTML, redirected away... */
  notices: z.array(z.string()),
  pagesScanned: z.number().int(),
  imagesFound: z.number().int(),
  /** Share of the non-decorative images that pass (0 to 1); null when there is none. */
  score: z.number().nullable(),
  counts: auditCountsSchema,
  /** How many images have each problem code. */
  problems: z.partialRecord(auditProblemCodeSchema, z.number().int()),
  /** How many images have a suggestion in each review state. */
  reviews: auditReviewCountsSchema,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Audit = z.infer<typeof auditSchema>;

export const listAuditsResponseSchema = z.array(auditSchema);

/** GET /audits/{id}/images?page=&pageSize=&verdict=&problem=&review= */
export const auditImagesQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'page must be at least 1').default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(MAX_AUDIT_IMAGES_PAGE_SIZE, `pageSize must be at most ${MAX_AUDIT_IMAGES_PAGE_SIZE}`)
    .default(50),
  verdict: auditVerdictSchema.optional(),
  problem: auditProblemCodeSchema.optional(),
  /** A review state, or `none` for images without a suggestion yet. */
  review: z.enum([...auditReviewStateSchema.options, 'none']).optional(),
});

export const auditImageSchema = z.object({
  id: z.uuid(),
  pageUrl: z.string(),
  src: z.string(),
  /** The alt attribute as written; null when the image has none. */
  alt: z.string().nullable(),
  role: auditImageRoleSchema,
  /** What kind of element it is: img, input-image, area, svg, role-img, css-background or object. */
  element: auditImageElementSchema,
  /** Its accessible name as browsers compute it (W3C accname); null when it has none. */
  name: z.string().nullable(),
  /** Where `name` comes from; `none` when it has none. */
  nameSource: auditNameSourceSchema,
  verdict: auditVerdictSchema,
  problems: z.array(auditProblemSchema),
  /** The generated alt text; for an edited image, the text the user saved. */
  suggestion: z.string().nullable(),
  /**
   * With a suggestion for a chart, diagram or other complex image: its long description (labels and
   * values in reading order, ADR 050); for an edited image, the one the user saved. Otherwise null.
   */
  longDescription: longDescriptionSchema,
  reviewState: auditReviewStateSchema.nullable(),
  /**
   * Where the alt text came from (ADR 057): the suggestion's origin (`ai`, or `human`/`embedded` when
   * the engine kept the page's or the file's alt word for word; `ai-reviewed` once accepted,
   * `ai-edited` once saved after an edit); without a suggestion `human` for the page's alt, null when
   * there is none.
   */
  origin: altOriginSchema.nullable(),
  fixStatus: auditFixStatusSchema.nullable(),
  /**
   * A small stored preview served by this app at `/files/…`, made when the audit fetched
   * the image (pixel check) or a fix described it; null until then.
   */
  thumbnailUrl: z.string().nullable(),
  /**
   * With a suggestion: how sure the engine was (0..1, null when it did not say), whether a person
   * should look at it, and the evidence it used (point 9), as the library rows carry them.
   * Null without a suggestion, and for an edited suggestion (the words are the user's).
   * `needsWords`: the engine found nothing it can stand behind, so the suggestion is empty and a
   * person's words are needed; `needsWordsReason` says why (null otherwise); `publishable`: whether
   * the suggestion may go live by the publishable rule (ADR 067), judged from the stored alt, its
   * origin, its evidence and the decorative mark (ADR 068).
   */
  suggestionEvidence: z
    .object({
      confidence: z.number().min(0).max(1).nullable(),
      needsReview: z.boolean(),
      reasons: z.array(altTextReasonSchema),
      needsWords: z.boolean(),
      needsWordsReason: z.string().nullable(),
      publishable: z.boolean(),
    })
    .nullable(),
  /**
   * On a rendered page: the image cropped from a screenshot of the page as the browser showed it
   * (ADR 061), at this API's `/api/v1/audits/{id}/images/{imageId}/screenshot`, which only the
   * audit's owner can read (Bearer token or API key). Null when the page was not rendered or the
   * image was not on screen.
   */
  screenshotUrl: z.string().nullable(),
  /**
   * Where the image is used, as the audit read its page: the nearest heading, its caption, and the
   * link it sits in (target and text); each null when the page gives none. Shown to the reviewer who
   * writes the words (ADR 068).
   */
  usedIn: z.object({
    heading: z.string().nullable(),
    caption: z.string().nullable(),
    linkTarget: z.string().nullable(),
    linkText: z.string().nullable(),
  }),
});
export type AuditImage = z.infer<typeof auditImageSchema>;
export type AuditSuggestionEvidence = NonNullable<AuditImage['suggestionEvidence']>;

export const auditImagesResponseSchema = z.object({
  items: z.array(auditImageSchema),
  total: z.number().int(),
});
export type AuditImagesResponse = z.infer<typeof auditImagesResponseSchema>;

export const auditPagesResponseSchema = z.object({ items: z.array(auditPageSchema) });
export type AuditPagesResponse = z.infer<typeof auditPagesResponseSchema>;

export const auditPageParamsSchema = z.object({
  id: z.uuid({ error: 'There is no such audit.' }),
  pageId: z.uuid({ error: 'There is no such page in this audit.' }),
});

/** Names longer than this are marked verbose in the screen-reader preview. */
export const VERBOSE_NAME_CHARS = 150;
/** Most announcements one page's screen-reader preview holds. */
export const MAX_PAGE_ANNOUNCEMENTS = 2000;

/**
 * What a screen reader announces for one thing on the page: an image, a link, a button, a heading,
 * or the text between them (`text`, cut short), in reading order.
 */
export const announcementRoleSchema = z.enum(['image', 'link', 'button', 'heading', 'text']);
export type AnnouncementRole = z.infer<typeof announcementRoleSchema>;

/**
 * Why an announcement is marked: `redundant` (an image link next to a text link to the same address,
 * or a name that repeats the text beside it) or `verbose` (a name longer than VERBOSE_NAME_CHARS, or
 * one that announces the medium, "image of …"). The message says it in one sentence.
 */
export const announcementFlagSchema = z.object({
  kind: z.enum(['redundant', 'verbose']),
  message: z.string(),
});
export type AnnouncementFlag = z.infer<typeof announcementFlagSchema>;

export const announcementSchema = z.object({
  role: announcementRoleSchema,
  /** The accessible name (for `text`, the text itself), cut at 200 characters. */
  name: z.string(),
  /** What a screen reader says, roughly: "link, image, Harbour Lights". */
  spoken: z.string(),
  /** A heading's level (1 to 6). */
  level: z.number().int().optional(),
  /** Where a link goes. */
  href: z.string().optional(),
  /** The link or button is, or holds, an image. */
  image: z.boolean().optional(),
  flags: z.array(announcementFlagSchema),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** GET /audits/{id}/pages/{pageId}/announcements: a page's screen-reader preview. */
export const pageAnnouncementsResponseSchema = z.object({
  pageId: z.uuid(),
  url: z.string(),
  items: z.array(announcementSchema),
  /** The page had more than MAX_PAGE_ANNOUNCEMENTS: only the first are here. */
  truncated: z.boolean(),
  hiddenImages: z.number().int(),
  /** How many announcements are marked redundant and verbose. */
  redundant: z.number().int(),
  verbose: z.number().int(),
});
export type PageAnnouncementsResponse = z.infer<typeof pageAnnouncementsResponseSchema>;

/** Most images one POST /audits/{id}/fix or /review names. */
export const MAX_AUDIT_FIX_IMAGES = 500;

const auditImageIdsSchema = z
  .array(z.uuid({ error: 'Each image id must be an image of this audit' }), {
    error: 'imageIds must be a list of image ids',
  })
  .min(1, 'Select at least one image')
  .max(MAX_AUDIT_FIX_IMAGES, `At most ${MAX_AUDIT_FIX_IMAGES} images at once`);

/**
 * POST /audits/{id}/fix. Without `imageIds`: every image whose verdict is `fail` and that has no
 * suggestion yet and is not being fixed (at most MAX_AUDIT_FIX_IMAGES, in page order; call again for
 * the rest). With `imageIds`: exactly those images, whatever their verdict (an explicit choice).
 */
export const fixAuditRequestSchema = z.strictObject({
  imageIds: auditImageIdsSchema.optional(),
  /**
   * Without `imageIds`: fix at most this many failing images (the first in page order), so a balance
   * too small for all of them still fixes what it can ("Fix N of M now").
   */
  limit: z
    .number()
    .int('The limit must be a whole number')
    .min(1, 'The limit must be at least 1')
    .max(MAX_AUDIT_FIX_IMAGES, `The limit must be at most ${MAX_AUDIT_FIX_IMAGES}`)
    .optional(),
});
export type FixAuditRequest = z.infer<typeof fixAuditRequestSchema>;

/** 202 of POST /audits/{id}/fix: the generation batch (follow it at /images/batches/{batchId}). */
export const fixAuditResponseSchema = z.object({
  batchId: z.uuid(),
  /** The ids of the audit images queued, one credit each. */
  images: z.array(z.uuid()),
  creditsReserved: z.number().int().positive(),
  remainingCredits: z.number().int().nonnegative(),
  /** Failing images still without a suggestion that this call left for a next one (over the cap). */
  remaining: z.number().int().nonnegative(),
});
export type FixAuditResponse = z.infer<typeof fixAuditResponseSchema>;

export const auditReviewActionSchema = z.enum(['accept', 'reject', 'edit', 'decorative'], {
  error: 'The action must be accept, reject, edit or decorative',
});
export type AuditReviewAction = z.infer<typeof auditReviewActionSchema>;

/**
 * POST /audits/{id}/review. Every named image must have a suggestion (409 otherwise, nothing
 * changes). accept: the suggestion lands in the library; edit: `altText` lands instead (with
 * `longDescription` when given: null or empty removes it, left out the suggestion's stays); reject:
 * nothing lands (409 for an image already accepted or edited: delete it in the library instead);
 * decorative: a person marks the image decorative on purpose, `alt=""` lands (ADR 068).
 * An accept of a suggestion that may not go live (ADR 067: a needs-words image, a kind-and-tone
 * sentence…) answers 409 UNPUBLISHABLE_ALT listing those images, and nothing changes. With
 * `skipUnpublishable: true` ("approve all") those are left pending instead and counted in `skipped`.
 */
export const reviewAuditRequestSchema = z
  .strictObject({
    imageIds: auditImageIdsSchema,
    action: auditReviewActionSchema,
    altText: z
      .string({ error: 'altText must be text' })
      .trim()
      .min(1, 'Alt text cannot be empty')
      .max(
        MAX_ALT_TEXT_CHARS,
        `Alt text must be at most ${MAX_ALT_TEXT_CHARS.toLocaleString('en-US')} characters`,
      )
      .optional(),
    longDescription: longDescriptionInputSchema.optional(),
    skipUnpublishable: z.boolean({ error: 'skipUnpublishable must be true or false' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action !== 'accept' && body.skipUnpublishable !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['skipUnpublishable'],
        message: 'skipUnpublishable goes only with the accept action',
      });
    }
    if (body.action === 'edit' && body.altText === undefined) {
      ctx.addIssue({ code: 'custom', path: ['altText'], message: 'Editing needs the alt text to save' });
    }
    if (body.action !== 'edit' && body.altText !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['altText'], message: 'altText goes only with the edit action' });
    }
    if (body.action !== 'edit' && body.longDescription !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['longDescription'],
        message: 'longDescription goes only with the edit action',
      });
    }
  });
export type ReviewAuditRequest = z.infer<typeof reviewAuditRequestSchema>;

/**
 * 200 of POST /audits/{id}/review: the images as they are now, and the audit's review counts;
 * `skipped`: how many named images an accept with `skipUnpublishable` left pending because their
 * suggestion may not go live (0 otherwise).
 */
export const reviewAuditResponseSchema = z.object({
  items: z.array(auditImageSchema),
  reviews: auditReviewCountsSchema,
  skipped: z.number().int().nonnegative().default(0),
});
export type ReviewAuditResponse = z.infer<typeof reviewAuditResponseSchema>;
