import { serveSandbox } from '../lib/sandbox.ts';
import { checkPageImages } from '../rules/checks.ts';
import { readImages } from './extract-images.ts';
import { readPage } from './extract-page.ts';

/**
 * The worker thread that reads untrusted HTML (ADR 048): the scrape call's images and an
 * audited page's images, links and verdicts. Only plain data crosses the thread boundary (URLs as
 * strings). Created through page-sandbox.ts; nothing here runs on the API's event loop.
 */
const handlers = {
  /** POST /users/scrape-and-generate: the page's images, and the limits it reached. */
  scrapeImages: (input: { html: string; pageUrl: string; limit: number }) =>
    readImages(input.html, new URL(input.pageUrl), input.limit),
  /** One page of an audit: what it holds, and the verdicts of its images in the same order. */
  auditPage: (input: { html: string; pageUrl: string; marker?: string }) => {
    const reading = readPage(input.html, new URL(input.pageUrl), input.marker);
    return { ...reading, verdicts: checkPageImages(reading.images) };
  },
};

export type PageHandlers = typeof handlers;

serveSandbox(handlers);
