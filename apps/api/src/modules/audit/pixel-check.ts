import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { AuditImage, AuditImageFactsRecord } from '../../db/tables/audits.ts';
import { EngineBusyError } from '../../engines/errors.ts';
import type { ImageTextReading } from '../../engines/types.ts';
import { Semaphore } from '../../lib/throttle.ts';
import { type AuditImageFacts, checkPageImages, pixelCheckNeed } from '../../rules/checks.ts';
import { statedFacts } from '../../rules/image-text.ts';
import type { Crawler } from './crawler.ts';
import { PAGES_AT_ONCE_PER_HOST } from './crawler.ts';
import type { AuditPreviewKeeper } from './previews.ts';
import {
  addAuditNotice,
  landPixelEvidence,
  listImagesForPixelCheck,
  type PixelCheckRow,
} from './repository.ts';

/**
 * The audit's pixel check (ADR 037): for `alt=""` images that neither a link nor their markup
 * explains, read the text in the picture with the offline engine's OCR; for images with a text alt,
 * see whether they are one colour, and what text they show (ADR 060: the alt must not contradict a
 * phone number, price, date or heading in the picture). Free (no paid model), deterministic for the same bytes, and
 * explainable: the evidence is the text read or "one colour".
 */

/** Most distinct image addresses one audit looks at; the rest are judged on their HTML alone. */
export const MAX_PIXEL_CHECKS = 200;
/** One image's fetch and reading together; beyond it the image gets no pixel evidence. */
export const PIXEL_CHECK_TIMEOUT_MS = 20_000;
/** Text makes an image informative when the OCR accepts at least this many words of two letters or more… */
export const MIN_TEXT_WORDS = 2;
/** …at this mean confidence (0..100; each word already needs ENGINE_OCR_MIN_CONFIDENCE). */
export const MIN_TEXT_CONFIDENCE = 75;

export type PixelEvidence = NonNullable<AuditImageFactsRecord['pixels']>;

/** Reads an image's pixels: the offline engine's `readImageText`. */
export type ImageTextReader = (image: Uint8Array) => Promise<ImageTextReading>;

/** Numbers read in one image that make it informative on their own: a chart's axis or a price list (ADR 060). */
export const MIN_CHART_NUMBERS = 4;

/**
 * The verdict-relevant evidence in a reading: one colour (not informative), text (informative, with
 * the text and the OCR's confidence as evidence), or nothing either way (a photo without text, a
 * timed-out OCR). Text is two words of two letters or more, a phone number, price or date
 * (image-text.ts), or MIN_CHART_NUMBERS numbers, read at MIN_TEXT_CONFIDENCE.
 */
export function evidenceOf(reading: ImageTextReading): PixelEvidence {
  if (reading.blank) return { informative: false };
  if (reading.timedOut || reading.confidence < MIN_TEXT_CONFIDENCE) return {};
  // Whole tokens only: "0:00 / 4:08" on a video player is two times, not four numbers.
  const numbers = reading.text.split(/\s+/).filter((token) => /^\d[\d.,%]{0,12}$/.test(token)).length;
  const text =
    reading.letterWords >= MIN_TEXT_WORDS ||
    numbers >= MIN_CHART_NUMBERS ||
    statedFacts(reading.text).length > 0;
  return text ? { informative: true, text: reading.text, confidence: Math.round(reading.confidence) } : {};
}

/** The checks' facts for a stored image, with what its pixels showed. */
export function factsOfRow(
  row: Pick<AuditImage, 'pageUrl' | 'src' | 'alt' | 'role' | 'facts'>,
): AuditImageFacts {
  const { pixels, ...facts } = row.facts;
  return withPixelEvidence(
    { pageUrl: row.pageUrl, src: row.src, alt: row.alt, role: row.role, ...facts },
    pixels ?? {},
  );
}

/** An image's facts with what its pixels showed: the facts the checks read on a recheck. */
export function withPixelEvidence(facts: AuditImageFacts, pixels: PixelEvidence): AuditImageFacts {
  return {
    ...facts,
    ...(pixels.informative !== undefined ? { informative: pixels.informative } : {}),
    ...(pixels.text ? { imageText: pixels.text } : {}),
    ...(pixels.confidence !== undefined ? { imageTextConfidence: pixels.confidence } : {}),
  };
}

export type PixelPlan = {
  /** The sources to look at, in order: `empty-alt` ones first, then by page depth, page address and position. */
  sources: Array<{ src: string; need: 'empty-alt' | 'text-alt'; done: boolean }>;
  /** Distinct sources beyond MAX_PIXEL_CHECKS that get no pixel check. */
  over: number;
};

/**
 * Which image addresses an audit looks at: each distinct src once, `empty-alt` when any of its images
 * is an unexplained alt="" (its text makes it informative), else `text-alt` (one colour, or text its
 * alt contradicts); both are the same reading. The order and so the cap's cut
 * depend only on the pages, never on which worker landed first.
 */
export function planPixelChecks(rows: PixelCheckRow[], max = MAX_PIXEL_CHECKS): PixelPlan {
  const bySrc = new Map<string, { need: 'empty-alt' | 'text-alt'; done: boolean; first: PixelCheckRow }>();
  const before = (a: PixelCheckRow, b: PixelCheckRow) =>
    a.depth - b.depth || (a.pageUrl < b.pageUrl ? -1 : a.pageUrl > b.pageUrl ? 1 : a.position - b.position);
  for (const row of rows) {
    const need = pixelCheckNeed(factsOfRow(row));
    if (!need) continue;
    const done = row.facts.pixels !== undefined;
    const known = bySrc.get(row.src);
    if (!known) {
      bySrc.set(row.src, { need, done, first: row });
      continue;
    }
    if (need === 'empty-alt') known.need = 'empty-alt';
    known.done &&= done;
    if (before(row, known.first) < 0) known.first = row;
  }
  const ordered = [...bySrc.entries()].sort(
    ([, a], [, b]) => (a.need === b.need ? 0 : a.need === 'empty-alt' ? -1 : 1) || before(a.first, b.first),
  );
  return {
    sources: ordered.slice(0, max).map(([src, { need, done }]) => ({ src, need, done })),
    over: Math.max(0, ordered.length - max),
  };
}

/** Readings at once in this process, across audits (the engine's queue is bounded). */
const readingSlots = new Semaphore(2);

/** Fetches and reads one image; no evidence (`{}`) when anything fails or it takes too long. */
export async function lookAtImage(
  src: string,
  fetchImage: (src: string) => Promise<Uint8Array | null>,
  read: ImageTextReader,
  timeoutMs = PIXEL_CHECK_TIMEOUT_MS,
): Promise<PixelEvidence> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PixelEvidence>((resolve) => {
    timer = setTimeout(() => resolve({}), timeoutMs);
  });
  const work = (async (): Promise<PixelEvidence> => {
    const bytes = await fetchImage(src);
    if (!bytes) return {};
    const release = await readingSlots.acquire();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          // An image with a text alt keeps its text too: the alt must not contradict it (text-mismatch).
          return evidenceOf(await read(bytes));
        } catch (error) {
          if (!(error instanceof EngineBusyError) || attempt >= 20) return {};
          await sleep(250);
        }
      }
    } finally {
      release();
    }
  })().catch((): PixelEvidence => ({}));
  const evidence = await Promise.race([work, timeout]);
  clearTimeout(timer);
  return evidence;
}

/** Rechecks one page's stored images with what their pixels showed. */
function recheckPage(pageImages: AuditImage[]) {
  return checkPageImages(pageImages.map(factsOfRow)).map(({ verdict, problems }) => ({ verdict, problems }));
}

export function createPixelChecker(deps: {
  db: Database;
  crawler: Crawler;
  read: ImageTextReader;
  logger: FastifyBaseLogger;
  /** Keeps a preview of each image fetched (ADR 051); absent = none kept. */
  storePreview?: AuditPreviewKeeper;
}) {
  const { db, crawler, read, logger } = deps;
  const fetchImage = async (auditId: string, address: string) => {
    const bytes = await crawler.fetchImage(address);
    if (bytes) await deps.storePreview?.(auditId, address, bytes);
    return bytes;
  };
  return {
    /**
     * Looks at the audit's images not yet looked at, PAGES_AT_ONCE_PER_HOST at a time, landing each
     * source's evidence (and its pages' new verdicts) as soon as it is read. A resumed run plans the
     * same sources and skips those already landed.
     */
    async checkAudit(auditId: string, stopping: () => boolean): Promise<void> {
      const plan = planPixelChecks(await listImagesForPixelCheck(db, auditId));
      if (plan.over > 0)
        await addAuditNotice(
          db,
          auditId,
          `The pixels of ${MAX_PIXEL_CHECKS} images were checked; ${plan.over} more image${plan.over === 1 ? ' was' : 's were'} judged on the page’s HTML alone.`,
        );
      const queue = plan.sources.filter((source) => !source.done);
      const work = async () => {
        for (let next = queue.shift(); next && !stopping(); next = queue.shift()) {
          const { src } = next;
          const evidence = await lookAtImage(src, (address) => fetchImage(auditId, address), read);
          try {
            await landPixelEvidence(db, auditId, src, evidence, recheckPage);
          } catch (error) {
            logger.warn({ err: error, audit: auditId, src }, 'storing pixel evidence failed');
          }
        }
      };
      await Promise.all(Array.from({ length: PAGES_AT_ONCE_PER_HOST }, work));
    },
  };
}
