import {
  auditImageParamsSchema,
  auditImagesQuerySchema,
  auditImagesResponseSchema,
  auditPageParamsSchema,
  auditPagesResponseSchema,
  auditParamsSchema,
  auditSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  fixAuditRequestSchema,
  fixAuditResponseSchema,
  listAuditsResponseSchema,
  MAX_ACTIVE_AUDITS,
  MAX_AUDIT_FIX_IMAGES,
  MAX_AUDIT_PAGES,
  MAX_AUDITS_PER_DAY,
  MAX_PAGE_ANNOUNCEMENTS,
  pageAnnouncementsResponseSchema,
  reviewAuditRequestSchema,
  reviewAuditResponseSchema,
  startAuditRequestSchema,
  startAuditResponseSchema,
  VERBOSE_NAME_CHARS,
} from '@altwise/contracts/audit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { streamProgress } from '../../lib/event-stream.ts';
import { AuditLimitError, type AuditService } from './service.ts';

/** How often the event stream looks at the database. */
const STREAM_POLL_MS = 500;

/** Alt-text audits, under /api/v1. */
export async function auditRoutes(
  app: FastifyInstance,
  options: { audits: AuditService; streamPollMs?: number },
) {
  const { audits } = options;
  const pollMs = options.streamPollMs ?? STREAM_POLL_MS;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
  });

  typed.post(
    '/audits',
    {
      schema: {
        tags: ['audits'],
        summary: 'Audit the alt text of a page, a site or a sitemap in the background (free)',
        description:
          `\`scope\`: \`page\` (this page), \`site\` (this page and the same-origin pages it links to, breadth first) or \`sitemap\` (the pages of the site's sitemap.xml, or of the sitemap the URL names; sitemap indexes are followed). ` +
          `At most \`maxPages\` pages (default ${DEFAULT_AUDIT_MAX_PAGES}, at most ${MAX_AUDIT_PAGES}). Pages are fetched through the SSRF-safe fetcher, 2 at a time per host, never leaving the URL's origin (a redirect elsewhere is reported, not followed), as robots.txt allows. ` +
          `\`render\` (ADR 061): \`auto\` (default) also renders, in a headless browser, a page whose HTML has no images but runs scripts; \`always\` renders every page; \`never\` reads the HTML as sent. Every request the browser makes passes the same private-address checks; a rendered page's images get a screenshot. Without a browser on the server, \`always\` is refused with 422 (RENDERING_UNAVAILABLE) and \`auto\` reads the HTML with a notice. ` +
          `400 for an invalid URL or one whose host is private, local or does not resolve: nothing is queued then. 429 with Retry-After when the caller has ${MAX_ACTIVE_AUDITS} audits queued or running or has started ${MAX_AUDITS_PER_DAY} in 24 hours. Otherwise 202 with the audit's id; follow it with GET /audits/{id} or its event stream.`,
        body: startAuditRequestSchema,
        response: { 202: startAuditResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        const started = await audits.start(request.user.id, request.body);
        return reply.code(202).send(started);
      } catch (error) {
        if (error instanceof AuditLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  typed.get(
    '/audits',
    {
      schema: {
        tags: ['audits'],
        summary: 'The caller’s audits, newest first (at most 100)',
        response: { 200: listAuditsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.list(request.user.id);
    },
  );

  typed.get(
    '/audits/:id',
    {
      schema: {
        tags: ['audits'],
        summary: 'One of the caller’s audits: status, progress, score, verdict and problem counts',
        description:
          '`score` is the share of non-decorative images that pass (null when there is none); `pages` lists each page visited so far with whether it was `rendered` in the browser (ADR 061); `notices` says in words what the audit could not do (a page that is not HTML, a redirect to another site, a page robots.txt disallows); `error` why a failed audit failed. 404 when the audit is not the caller’s.',
        params: auditParamsSchema,
        response: { 200: auditSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.get(request.user.id, request.params.id);
    },
  );

  typed.get(
    '/audits/:id/events',
    {
      schema: {
        tags: ['audits'],
        summary: 'Server-sent events with an audit’s progress until it ends',
        description:
          '`text/event-stream`: an event `progress` (data: the same JSON as GET /audits/{id}) at once and whenever it changes; the stream closes after the event with status `completed` or `failed`. Authenticated by the Bearer header (read it with fetch streaming). 404 when the audit is not the caller’s.',
        params: auditParamsSchema,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      const auditId = request.params.id;
      // Answered in the usual shape (404...) before the stream starts.
      const first = await audits.get(userId, auditId);
      await streamProgress(request, reply, {
        first,
        read: () => audits.get(userId, auditId),
        done: (audit) => audit.status === 'completed' || audit.status === 'failed',
        pollMs,
        closing: () => closing,
      });
    },
  );

  typed.get(
    '/audits/:id/images',
    {
      schema: {
        tags: ['audits'],
        summary: 'The images of one of the caller’s audits, with their verdicts and problems',
        description:
          'In page order, then document order. Filters: `verdict` (pass, fail, warning, decorative), `problem` (a problem code), `review` (pending, accepted, rejected, edited, or none for images without a suggestion). `alt` is null when the image has no alt attribute. `longDescription` is the suggestion’s long description (a chart’s labels and values in reading order), null for other images. 404 when the audit is not the caller’s.',
        params: auditParamsSchema,
        querystring: auditImagesQuerySchema,
        response: { 200: auditImagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.images(request.user.id, request.params.id, request.query);
    },
  );

  typed.get(
    '/audits/:id/images/:imageId/screenshot',
    {
      schema: {
        tags: ['audits'],
        summary: 'The image as the rendered page showed it: a WebP crop of the page’s screenshot',
        description:
          'Only for images of rendered pages (`screenshotUrl` names it). Readable by the audit’s owner only (Bearer token or API key), never at a public address. 404 when the audit is not the caller’s or the image has no screenshot.',
        params: auditImageParamsSchema,
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const file = await audits.screenshot(request.user.id, request.params.id, request.params.imageId);
      reply
        .header('content-type', 'image/webp')
        .header('content-length', file.sizeBytes)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return reply.send(file.body);
    },
  );

  typed.get(
    '/audits/:id/pages',
    {
      schema: {
        tags: ['audits'],
        summary: 'The pages of one of the caller’s audits, with their image counts',
        description:
          'In the order the audit visits them. `note` says in words why a page was skipped or failed. `images` counts its audited images; `hiddenImages` the image-like elements visitors and screen readers do not get (display:none, visibility:hidden, the hidden attribute, aria-hidden="true" on them or around them, a zero width or height), which are left out of the audit. 404 when the audit is not the caller’s.',
        params: auditParamsSchema,
        response: { 200: auditPagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.pages(request.user.id, request.params.id);
    },
  );

  typed.get(
    '/audits/:id/pages/:pageId/announcements',
    {
      schema: {
        tags: ['audits'],
        summary: 'A page’s screen-reader preview: what is announced for its headings, links and images',
        description:
          `In reading order: \`heading\`, \`link\`, \`button\` and \`image\` announcements with their accessible names, and the \`text\` between them (cut short). Decorative and hidden images are not announced. \`flags\` mark \`redundant\` announcements (an image link next to a link to the same address, an image name that repeats the text beside it or its link's text) and \`verbose\` ones (a name longer than ${VERBOSE_NAME_CHARS} characters, or one that starts with the medium: "image of", "picture of", "link to"), each with a sentence saying why. At most ${MAX_PAGE_ANNOUNCEMENTS} announcements (\`truncated\` says when a page had more); empty for a page that was not scanned. ` +
          '404 when the audit is not the caller’s or the page is not the audit’s.',
        params: auditPageParamsSchema,
        response: { 200: pageAnnouncementsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.announcements(request.user.id, request.params.id, request.params.pageId);
    },
  );

  typed.post(
    '/audits/:id/fix',
    {
      schema: {
        tags: ['audits'],
        summary: 'Write alt text for an audit’s failing images (1 credit per image); results wait for review',
        description:
          `Without \`imageIds\`: every image whose verdict is \`fail\`, that has no suggestion yet and is not being fixed (at most ${MAX_AUDIT_FIX_IMAGES} in page order; \`remaining\` says how many are left for another call). With \`imageIds\`: exactly those images of this audit, whatever their verdict (the explicit choice that lets good alt text be rewritten). ` +
          'One generation batch (follow it at GET /images/batches/{batchId}): one credit per image reserved up front, given back for each image that fails. The engine is told each image’s page, heading, caption, adjacent text, link and existing alt. A result does not go to the library: it becomes the image’s `suggestion` with `reviewState: pending` (see POST /audits/{id}/review). ' +
          'The alt text is written in the account’s default language (422 when the engine cannot write it). 402 when the credits are short, 409 when nothing is left to fix or a selected image is being fixed already (nothing is queued or charged then); 404 when the audit or an image is not the caller’s.',
        params: auditParamsSchema,
        body: fixAuditRequestSchema,
        response: { 202: fixAuditResponseSchema },
      },
    },
    async (request, reply) => {
      const started = await audits.fix(request.user.id, request.params.id, request.body);
      return reply.code(202).send(started);
    },
  );

  typed.post(
    '/audits/:id/review',
    {
      schema: {
        tags: ['audits'],
        summary: 'Accept, edit or reject the suggestions of a selection of an audit’s images',
        description:
          '`accept`: the suggestion lands in the library (src = the image URL, with its page context and the engine’s confidence) and the image is `accepted`; `edit`: `altText` (1 to 1,000 characters) lands instead and the image is `edited`, with `longDescription` when given (at most 1,000 characters; null or empty removes it; left out, the suggestion’s lands); `reject`: nothing lands and the image is `rejected`. Accepting or editing an image already in the library changes that library row rather than adding one. ' +
          'All or nothing: 409 when a selected image has no suggestion yet, or for `reject` when one is in the library already; 404 when the audit or an image is not the caller’s. Answers the images as they are now and the audit’s review counts.',
        params: auditParamsSchema,
        body: reviewAuditRequestSchema,
        response: { 200: reviewAuditResponseSchema },
      },
    },
    async (request) => audits.review(request.user.id, request.params.id, request.body),
  );

  for (const format of ['csv', 'xlsx'] as const) {
    const contentType =
      format === 'csv'
        ? 'text/csv; charset=utf-8'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    typed.get(
      `/audits/:id/report.${format}`,
      {
        schema: {
          tags: ['audits'],
          summary: `An audit as ${format === 'csv' ? 'CSV' : 'an xlsx workbook'}: one row per image`,
          description:
            'Columns: Page URL, Image URL, Existing alt, Verdict, Problem codes, WCAG criteria, Suggested alt, Review state, Long description, Origin (where the alt text came from, ADR 057; lists separated by "; "), in page order. ' +
            (format === 'csv'
              ? 'RFC 4180 with a UTF-8 byte order mark; a cell starting with = + - @ gets an apostrophe so no spreadsheet runs it. '
              : 'One sheet, the header row bold and frozen. ') +
            'An attachment named after the site and the day. 404 when the audit is not the caller’s.',
          params: auditParamsSchema,
          produces: [contentType.split(';')[0] ?? contentType],
        },
      },
      async (request, reply) => {
        const report = await audits.report(request.user.id, request.params.id, format);
        reply.header('content-type', contentType);
        reply.header('content-disposition', `attachment; filename="${report.fileName}"`);
        reply.header('cache-control', 'no-store');
        return reply.send(report.body);
      },
    );
  }
}
