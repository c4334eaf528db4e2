import { z } from 'zod';
import {
  auditImageRoleSchema,
  auditProblemCodeSchema,
  auditProblemSchema,
  auditVerdictSchema,
} from './audit-problems.ts';
import { SCRAPE_URL_MAX_CHARS } from './scrape.ts';

/**
 * Alt-text audits of a page, a site or a sitemap (issue 13, ADR 026): free, run in the background,
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

export const auditStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);
export type AuditStatus = z.infer<typeof auditStatusSchema>;

export const auditReviewStateSchema = z.enum(['pending', 'accepted', 'rejected', 'edited']);
export type AuditReviewState = z.infer<typeof auditReviewStateSchema>;

/** POST /audits. */
export const startAuditRequestSchema = z.strictObject({
  url: z
    .string({ error: 'Please enter a URL' })
    .trim()
    .min(1, 'Please enter a URL')
    .max(
      SCRAPE_URL_MAX_CHARS,
      `The URL must be at most ${SCRAPE_URL_MAX_CHARS.toLocaleString('en-US')} characters`,
    )
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid http or https URL' })),
  scope: auditScopeSchema,
  maxPages: z
    .number({ error: 'maxPages must be a whole number' })
    .int('maxPages must be a whole number')
    .min(1, 'maxPages must be at least 1')
    .max(MAX_AUDIT_PAGES, `maxPages must be at most ${MAX_AUDIT_PAGES}`)
    .default(DEFAULT_AUDIT_MAX_PAGES),
});
export type StartAuditRequest = z.input<typeof startAuditRequestSchema>;

export const startAuditResponseSchema = z.object({ id: z.uuid() });
export type StartAuditResponse = z.infer<typeof startAuditResponseSchema>;

export const auditParamsSchema = z.object({ id: z.uuid({ error: 'There is no such audit.' }) });

export const auditCountsSchema = z.object({
  pass: z.number().int(),
  fail: z.number().int(),
  warning: z.number().int(),
  decorative: z.number().int(),
});
export type AuditCounts = z.infer<typeof auditCountsSchema>;

/** GET /audits/{id}, each row of GET /audits and each event of GET /audits/{id}/events. */
export const auditSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  scope: auditScopeSchema,
  maxPages: z.number().int(),
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
  verdict: auditVerdictSchema,
  problems: z.array(auditProblemSchema),
  suggestion: z.string().nullable(),
  reviewState: auditReviewStateSchema.nullable(),
});
export type AuditImage = z.infer<typeof auditImageSchema>;

export const auditImagesResponseSchema = z.object({
  items: z.array(auditImageSchema),
  total: z.number().int(),
});
export type AuditImagesResponse = z.infer<typeof auditImagesResponseSchema>;
