import type { EngineOptions } from '../engine-options.ts';
import { EngineBusyError, EngineProviderError } from '../errors.ts';
import { groundedOrNothing, needsWords, primaryLanguage, requestedLanguage } from '../grounded.ts';
import { dominantColourIn, measurePixels } from '../image-stats.ts';
import { cleanContext } from '../page-context.ts';
import { encodePng, prepareImage } from '../prepare-image.ts';
import { applyQualityRules } from '../quality-rules.ts';
import { reviewVerdict } from '../review.ts';
import { capConfidence, decideRole } from '../role.ts';
import { answerByRole } from '../role-result.ts';
import type {
  AltTextEngine,
  AltTextResult,
  DescribeOptions,
  GeneratedText,
  GenerateTextOptions,
  ImageTextReading,
  PageContext,
} from '../types.ts';
import { barsIn, describeChart } from './chart.ts';
import { composeAltText, graphicTextIsWords, pageWordsOf } from './compose.ts';
import { writeDraft } from './draft-writer.ts';
import { addTruthfulKeywords } from './keywords.ts';
import { ocrModelName } from './ocr.ts';
import { visionModelName } from './vision.ts';
import { WorkerPool } from './worker-pool.ts';

export const offlineModelName = `${visionModelName}+${ocrModelName}`;

/**
 * The embedded default: no network, nothing installed beyond npm install. Image preparation
 * and pixel statistics run on the main thread through sharp (libvips works off the event loop);
 * detection and OCR run in a small pool of worker threads with models kept warm.
 */
export function createOfflineEngine(options: EngineOptions): AltTextEngine {
  const pool = new WorkerPool({ size: options.offline.workers, maxQueue: options.offline.maxQueue });

  /**
   * The last stage (ADR 067): an alt text the publishable rule does not accept becomes "needs words";
   * a sentence for a page in a language the templates do not speak does too, unless it only quotes
   * the image's own text or the page's own words.
   */
  async function describeImage(image: Uint8Array, describe: DescribeOptions = {}): Promise<AltTextResult> {
    const result = await describeUnchecked(image, describe);
    const grounded = groundedOrNothing(result, describe.context, options.reviewThreshold);
    const language = requestedLanguage(describe, options.defaultLanguage);
    if (grounded.decorative || grounded.needsWords || writesIn(language)) return grounded;
    if (quotesOnly(grounded, describe.context))
      return { ...grounded, signals: { ...grounded.signals, language } };
    return needsWords(
      grounded,
      `The offline engine writes sentences in English only; this page is in ${languageName(language)}: it needs your words.`,
      options.reviewThreshold,
    );
  }

  async function describeUnchecked(image: Uint8Array, describe: DescribeOptions): Promise<AltTextResult> {
    const t0 = performance.now();
    describe.signal?.throwIfAborted();
    // Refuse before decoding: each queued request holds its prepared pixels (up to ~4.5 MB).
    if (!pool.hasCapacity) throw new EngineBusyError();
    const prepared = await prepareImage(image, options.limits);
    const stats = await measurePixels(prepared);
    const tPrepared = performance.now();
    const tiny = prepared.original.width * prepared.original.height <= 400;
    // A lone mark (a logo, an icon) is a flat picture of modest size; photographs are not matched.
    const markSized =
      Math.max(prepared.original.width, prepared.original.height) <= 800 &&
      (stats.flatShare >= 0.6 || prepared.transparentShare > 0.1);
    const runModels = async () =>
      tiny || stats.uniform
        ? undefined
        : await pool.run({
            rgb: toArrayBuffer(prepared.rgb),
            width: prepared.width,
            height: prepared.height,
            png: toArrayBuffer(await encodePng(prepared)),
            ocr: { minConfidence: options.offline.ocrMinConfidence, timeoutMs: options.offline.ocrTimeoutMs },
            marks: markSized,
          });
    // The only content of a link or button: the text in the image is its best name, so
    // the models run first; any other image the role can decide costs no detection or OCR.
    const onlyContent = controlOnly(cleanContext(describe.context));
    let models = onlyContent ? await runModels() : undefined;
    // W3C alt decision tree first: a link's only image names where it goes; text beside it makes it decorative.
    const role = answerByRole(describe, options, {
      prepared,
      stats,
      startedAt: t0,
      model: offlineModelName,
      // Only a graphic's text names it: words read in a photograph (a sign, a shirt) are not its purpose.
      ...(models?.ocr.text &&
      models.ocr.confidence >= 75 &&
      (stats.flatShare >= 0.6 || prepared.transparentShare > 0.1) &&
      // OCR letters that are not words ("CITYLIGHTS your aceesto the") do not name a link (ADR 067).
      graphicTextIsWords(models.ocr, pageWordsOf(cleanContext(describe.context)))
        ? { imageText: models.ocr.text }
        : {}),
      ...(models?.mark ? { mark: models.mark } : {}),
    });
    if (role) return role;
    if (!onlyContent) models = await runModels();
    describe.signal?.throwIfAborted();
    const tModels = performance.now();
    const context = cleanContext(describe.context);
    const maxLength = describe.maxLength ?? options.defaultMaxLength;
    const composition = composeAltText({
      stats,
      objects: models?.objects ?? [],
      faces: models?.faces ?? [],
      ocr: models?.ocr ?? { text: '', confidence: 0, words: 0, numbers: 0 },
      width: prepared.original.width,
      height: prepared.original.height,
      transparentShare: prepared.transparentShare,
      context,
      minDetectionScore: options.offline.minDetectionScore,
      maxLength,
      ...(models?.mark ? { mark: models.mark } : {}),
      ...clothing(prepared, models?.faces ?? []),
    });
    // A chart read by the OCR (ADR 050): its kind, title and range as the alt, its labels
    // and values as the long description. The page's own words (a caption, an existing alt) still lead.
    const chart =
      composition.kind === 'chart' && models?.ocr.lines?.length
        ? describeChart({
            lines: models.ocr.lines
              .flatMap((line) =>
                spreadApart(line.regions, prepared.original.width, prepared.original.height)
                  ? (line.regions ?? [line])
                  : [line],
              )
              .map((region) => ({
                text: region.text,
                box: {
                  x: region.box[0] * prepared.original.width,
                  y: region.box[1] * prepared.original.height,
                  width: region.box[2] * prepared.original.width,
                  height: region.box[3] * prepared.original.height,
                },
              })),
            width: prepared.original.width,
            height: prepared.original.height,
            hints: barsIn(prepared.rgb, prepared.width, prepared.height) ? { shape: 'bars' } : undefined,
          })
        : null;
    const pageWorded = composition.contextUsed.some(
      (field) => field === 'caption' || field === 'existingAlt',
    );
    // A chart's title is used only when its words are words (ADR 067); otherwise the composer decides.
    const chartAlt = chart && (!chart.title || titleIsWords(chart.title, models?.ocr.lines)) ? chart.alt : '';
    const composedAlt = chartAlt && !pageWorded ? chartAlt : composition.altText;
    // SEO keywords only where they name something seen or stated by the page.
    const worded = composition.decorative
      ? { altText: composedAlt, reasons: [] }
      : addTruthfulKeywords({
          altText: composedAlt,
          keywords: describe.keywords,
          detections: composition.objects.map((o) => o.label),
          context,
          maxLength,
        });
    const ruled = applyQualityRules({
      altText: worded.altText,
      decorative: composition.decorative,
      maxLength,
      ...(context.fileName ? { fileName: context.fileName } : {}),
    });
    const timingsMs: Record<string, number> = {
      prepare: Math.round(tPrepared - t0),
      models: Math.round(tModels - tPrepared),
      total: Math.round(performance.now() - t0),
    };
    if (models) Object.assign(timingsMs, models.timingsMs);
    const roleHint = decideRole(context);
    return {
      altText: ruled.altText,
      decorative: ruled.decorative,
      // The composer's own evidence-based score and the evidence it used (ADR 018).
      // A link or button the page does not name caps it, and the role says why (ADR 019).
      ...reviewVerdict(capConfidence(roleHint, composition.confidence), options.reviewThreshold),
      reasons:
        roleHint.kind === 'describe' && roleHint.maxConfidence !== undefined
          ? [...roleHint.reasons, ...composition.reasons, ...worded.reasons]
          : [
              ...composition.reasons,
              ...(chart
                ? [
                    {
                      source: 'ocr' as const,
                      detail: `read as ${chart.kind === 'chart' ? 'a chart' : `a ${chart.kind} chart`}: title, labels and values`,
                    },
                  ]
                : []),
              ...worded.reasons,
              ...roleHint.reasons,
            ],
      ...(composition.textInImage ? { textInImage: composition.textInImage } : {}),
      longDescription: chart && !ruled.decorative ? chart.longDescription : null,
      signals: {
        width: prepared.original.width,
        height: prepared.original.height,
        format: prepared.original.format,
        kind: composition.kind,
        greyscale: stats.greyscale,
        brightness: stats.brightness,
        colours: stats.colours,
        objects: composition.objects,
        faces: composition.faces,
        ...(composition.textInImage
          ? { text: composition.textInImage, textConfidence: models?.ocr.confidence ?? 0 }
          : {}),
        contextUsed: composition.contextUsed,
        // Free-form instructions need a language model; the offline engine does not pretend to follow them.
        promptApplied: false,
        // The offline templates are English; other languages need the openai provider.
        language: 'en',
        timingsMs,
      },
      engine: 'offline',
      model: offlineModelName,
    };
  }

  /**
   * The audit's pixel check (ADR 037): the same preparation, pixel statistics and OCR (with its
   * word filter) as describeImage, in the same worker threads, but no detection and no wording.
   */
  async function readImageText(image: Uint8Array): Promise<ImageTextReading> {
    const prepared = await prepareImage(image, options.limits);
    const stats = await measurePixels(prepared);
    const nothing = { text: '', words: 0, letterWords: 0, confidence: 0, timedOut: false };
    if (stats.uniform) return { blank: true, ...nothing };
    // Too small to hold readable text (the engine skips its models there too).
    if (prepared.original.width * prepared.original.height <= 400) return { blank: false, ...nothing };
    const { ocr } = await pool.run({
      rgb: new ArrayBuffer(0),
      width: prepared.width,
      height: prepared.height,
      png: toArrayBuffer(await encodePng(prepared)),
      ocr: { minConfidence: options.offline.ocrMinConfidence, timeoutMs: options.offline.ocrTimeoutMs },
      detect: false,
    });
    const letterWords = ocr.text
      .split(/\s+/)
      .filter((word) => word.replace(/[^\p{L}]/gu, '').length >= 2).length;
    return {
      blank: false,
      text: ocr.text,
      words: ocr.words,
      letterWords,
      confidence: ocr.confidence,
      timedOut: ocr.timedOut,
    };
  }

  async function generateText(prompt: string, generate: GenerateTextOptions = {}): Promise<GeneratedText> {
    if (!prompt.trim()) throw new EngineProviderError('The prompt is empty.', { retryable: false });
    return { text: writeDraft(prompt, generate), engine: 'offline', model: 'altwise-draft-writer-1' };
  }

  return {
    name: 'offline',
    model: offlineModelName,
    describeImage,
    readImageText,
    generateText,
    warmUp: async () => {
      await pool.start();
    },
    close: () => pool.close(),
  };
}

/** An image that is all a link or button holds: its name must come from the image or the page. */
function controlOnly(context: PageContext): boolean {
  return (context.role === 'link' || context.role === 'button') && !context.linkText;
}

/** The area below a single face, where clothing usually is; named only when one colour clearly dominates. */
function clothing(
  prepared: { rgb: Buffer; width: number; height: number },
  faces: Array<{ box: [number, number, number, number]; score: number }>,
): { clothingColour?: string } {
  const confident = faces.filter((f) => f.score >= 0.5);
  if (confident.length !== 1 || !confident[0]) return {};
  const [x, y, w, h] = confident[0].box;
  const torso: [number, number, number, number] = [x - w * 0.25, y + h * 1.35, w * 1.5, h * 1.5];
  if (torso[1] >= 0.95) return {};
  const found = dominantColourIn(prepared.rgb, prepared.width, prepared.height, torso);
  return found && found.share >= 0.45 ? { clothingColour: found.colour } : {};
}

function toArrayBuffer(buffer: Buffer): ArrayBuffer {
  // A copy the pool can transfer to the worker without detaching sharp's pooled memory.
  return new Uint8Array(buffer).buffer as ArrayBuffer;
}

/**
 * A row of labels (a chart's axis), not one phrase (a title): three or more regions standing further
 * apart than one and a half times their height, as a median. Box fractions are turned into pixels.
 */
function spreadApart(
  regions: ReadonlyArray<{ box: [number, number, number, number] }> | undefined,
  width: number,
  height: number,
): boolean {
  if (!regions || regions.length < 3) return false;
  const gaps: number[] = [];
  for (let i = 1; i < regions.length; i++) {
    const [x0, , w0] = (regions[i - 1] as { box: [number, number, number, number] }).box;
    const [x1] = (regions[i] as { box: [number, number, number, number] }).box;
    gaps.push((x1 - (x0 + w0)) * width);
  }
  gaps.sort((a, b) => a - b);
  const lineHeight = Math.max(...regions.map((r) => r.box[3])) * height;
  return (gaps[Math.floor(gaps.length / 2)] ?? 0) >= 1.5 * lineHeight;
}

/** The languages the offline templates write sentences in. */
const templateLanguages = new Set(['en']);

function writesIn(language: string): boolean {
  return templateLanguages.has(primaryLanguage(language));
}

/** "French" for "fr", in English (the reason is shown in the product's English). */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

const comparable = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The alt text is only words the engine did not write: the text read from the image, as read, or
 * the page's own caption, alt, link text or site name, copied. Those are in the page's language.
 */
function quotesOnly(result: AltTextResult, context: PageContext | undefined): boolean {
  const alt = comparable(result.altText);
  if (!alt) return false;
  const quoted = [
    result.textInImage,
    ...result.reasons.filter((reason) => reason.source === 'ocr').map((reason) => reason.detail),
    context?.caption,
    context?.existingAlt,
    context?.linkText,
    context?.siteName,
  ];
  return quoted.some((text) => text !== undefined && comparable(text) === alt);
}

/** Every word of three letters or more in a chart's title was read as a known word. */
function titleIsWords(
  title: string,
  lines: ReadonlyArray<{ regions?: ReadonlyArray<{ text: string; known?: boolean }> }> | undefined,
): boolean {
  const known = new Set(
    (lines ?? [])
      .flatMap((line) => line.regions ?? [])
      .filter((word) => word.known === true)
      .map((word) => comparable(word.text)),
  );
  const words = comparable(title)
    .split(' ')
    .filter((word) => /\p{L}{3}/u.test(word));
  return words.length > 0 && words.every((word) => known.has(word));
}
