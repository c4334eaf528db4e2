import { scrapeRequestSchema, scrapeResponseSchema } from '@altwise/contracts/scrape';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ScrapeService } from './service.ts';

/** Page scraping (the product spec §7), under /api/v1. */
export async function scrapeRoutes(app: FastifyInstance, options: { scrape: ScrapeService }) {
  const { scrape } = options;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/users/scrape-and-generate',
    {
      schema: {
        tags: ['images'],
        summary: 'Read a web page’s images: their sources, alt attributes and page context',
        description:
          'The page is fetched (http or https, at most 5 redirects, 5 MB of HTML) and parsed without running scripts. Each `img` gives one row: the largest `srcset` candidate, else `data-lazy-src`/`data-src`, else `src`, resolved against `<base href>` and the page, without its `#fragment`; duplicates removed; `data:` and other non-http sources come back with `invalid: true` and `error: "Invalid image source"`. At most 200 rows. 400 for an invalid URL or a private or local address; 413 for a page over 5 MB, or one too large or too complex to read (more than 100,000 HTML nodes before 200 images, or more than 10 s or 256 MB of parsing); 415 for an answer that is not HTML; 502 when the page cannot be reached or answers with an error; 504 when it takes too long. Nothing is charged.',
        body: scrapeRequestSchema,
        response: { 200: scrapeResponseSchema },
      },
    },
    async (request) => scrape.scrapePage(request.user.id, request.body.url),
  );
}
