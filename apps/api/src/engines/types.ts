/**
 * The alt-text engine's public shapes. Every provider (offline, openai) takes the same
 * input and returns the same result, so the server stores one shape whoever wrote it.
 */

import type { PageContext } from '@altwise/contracts/page-context';
import type { AltOrigin } from '@altwise/contracts/provenance';

export type EngineName = 'offline' | 'openai';

/** What the page around a scraped or uploaded image tells us: the contract's one type. */
export type { PageContext };

export interface DescribeOptions {
  /** The user's own instruction ("mention the brand", "keep it short"). */
  prompt?: string;
  context?: PageContext;
  /** BCP 47 language tag; default `en`. */
  language?: string;
  /** Maximum characters of alt text; default 125. */
  maxLength?: number;
  /** SEO keywords: used only where they truthfully describe the image. */
  keywords?: string[];
  signal?: AbortSignal;
}

export type ImageKind = 'photo' | 'illustration' | 'screenshot' | 'chart' | 'logo' | 'text' | 'blank';

export interface DetectedObject {
  label: string;
  score: number;
  /** Share of the image area covered by the box, 0..1. */
  area: number;
  /** Box as [x, y, width, height] in fractions of the image. */
  box: [number, number, number, number];
}

export interface DetectedFace {
  score: number;
  area: number;
  box: [number, number, number, number];
  /** Strongest expression when the model is confident; never age or gender. */
  expression?: string;
}

/** Everything an engine looked at, stored with the result so a reviewer can see why. */
export interface ImageSignals {
  width: number;
  height: number;
  format: string;
  kind: ImageKind;
  greyscale: boolean;
  brightness: 'dark' | 'medium' | 'bright';
  /** Colour names covering a noticeable share of the image, most common first. */
  colours: string[];
  objects: DetectedObject[];
  faces: DetectedFace[];
  /** Text read from the image above the confidence threshold. */
  text?: string;
  textConfidence?: number;
  /** Which parts of the page context the engine used. */
  contextUsed: string[];
  /** The offline engine cannot follow free-form prompts; it says so instead of pretending. */
  promptApplied: boolean;
  /** Language the alt text was written in. */
  language: string;
  timingsMs: Record<string, number>;
}

/** One piece of evidence an engine used, shown to the reviewer ("why this alt text?"). */
export interface AltTextReason {
  source:
    | 'caption'
    | 'existingAlt'
    /** Alt text or a description embedded in the image file (IPTC, XMP, EXIF; ADR 055). */
    | 'embedded'
    | 'pageTitle'
    | 'heading'
    | 'surroundingText'
    | 'link'
    | 'role'
    | 'ocr'
    | 'detection'
    | 'face'
    | 'pixels'
    | 'fileName'
    | 'model'
    /** A check of the audit the alt failed (ADR 054): its code and message. */
    | 'audit';
  /** What was taken from it: the caption text, the words read, "dog", ... */
  detail: string;
  /** The model's own score for it, 0..1, where there is one. */
  score?: number;
}

export interface AltTextResult {
  altText: string;
  decorative: boolean;
  /** How sure the engine is that the alt text is right, 0..1. */
  confidence: number;
  /** The evidence used, most important first. */
  reasons: AltTextReason[];
  /** confidence below the configured review threshold (ALT_TEXT_REVIEW_THRESHOLD): a person should look. */
  needsReview: boolean;
  /**
   * The engine found nothing it can stand behind (rules/publishable.ts, ADR 067): `altText` is '' (and
   * `decorative` false), and a person's words are needed. Absent or false when the engine wrote an alt.
   */
  needsWords?: boolean;
  /** With `needsWords`: why, in words a person can act on ("Nothing in or around this image …"). */
  needsWordsReason?: string;
  textInImage?: string;
  /**
   * For a chart, diagram or other complex image: its labels and values (or parts) in reading order,
   * at most MAX_LONG_DESCRIPTION_CHARS (1,000), published beside the image through `aria-describedby`
   * (ADR 050). null for every other image.
   */
  longDescription: string | null;
  signals: ImageSignals;
  engine: EngineName;
  model: string;
  /**
   * Whose words the alt text is (ADR 057): set by withEmbeddedEvidence, which every describe path
   * goes through; `ai` when absent.
   */
  origin?: AltOrigin;
  /**
   * Answered from an earlier result for the same bytes in the same context (ADR 073), not by the
   * engine now: no credit was kept for it. Absent or false for a fresh answer.
   */
  reused?: boolean;
}

export interface GenerateTextOptions {
  /** What the text is for; shapes the offline draft. */
  purpose?: 'blog-post' | 'caption' | 'text';
  maxTokens?: number;
  language?: string;
  signal?: AbortSignal;
}

export interface GeneratedText {
  text: string;
  engine: EngineName;
  model: string;
}

/**
 * What the offline engine reads from an image's pixels without describing it (the audit's pixel
 * check, ADR 037): whether it is (almost) one colour, and the text its OCR accepts.
 */
export interface ImageTextReading {
  /** The image is (almost) one colour: nothing to see. */
  blank: boolean;
  /** Words the OCR accepted (photo texture filtered out), lines joined by newlines; '' when none. */
  text: string;
  words: number;
  /** Accepted words with at least two letters (numbers and single letters are not counted). */
  letterWords: number;
  /** Mean confidence of the accepted words, 0..100. */
  confidence: number;
  /** The OCR ran out of time: nothing can be said about text. */
  timedOut: boolean;
}

/** An image an engine has prepared (decoded, shrunk, encoded), waiting only for its call. */
export interface PreparedForEngine {
  describe(options?: DescribeOptions): Promise<AltTextResult>;
}

/** One interface, one file per provider (docs/contributing.md, habit 7). */
export interface AltTextEngine {
  readonly name: EngineName;
  readonly model: string;
  describeImage(image: Uint8Array, options?: DescribeOptions): Promise<AltTextResult>;
  /**
   * The openai engine only: describeImage's own image work as a step of its own, so a caller that
   * limits engine calls (GENERATION_CONCURRENCY) runs it before taking a slot, overlapped with other
   * images' calls; describe() is then the call alone.
   */
  prepareImage?(image: Uint8Array): Promise<PreparedForEngine>;
  /** The offline engine only: pixel statistics and OCR, no description, no model cost. */
  readImageText?(image: Uint8Array): Promise<ImageTextReading>;
  generateText(prompt: string, options?: GenerateTextOptions): Promise<GeneratedText>;
  /** Loads models ahead of the first request; resolves when ready. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}
