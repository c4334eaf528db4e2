import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { resultOrigin } from '@altwise/contracts/provenance';
import { fitLongDescription } from './long-description.ts';
import { isDescriptiveAlt } from './page-context.ts';
import type { AltTextResult, PageContext } from './types.ts';

// Always the CommonJS build: its default export has `sidecar`, the ESM build's (which bundlers and
// Vitest pick from `module`) does not, so one import behaves the same under Node and in tests.
const exifr = createRequire(import.meta.url)('exifr') as typeof import('exifr');

/**
 * Text a person embedded in the image file (point 7; ADR 055): the IPTC accessibility
 * fields (XMP `Iptc4xmpCore:AltTextAccessibility` and `ExtDescrAccessibility`), else XMP
 * `dc:description`, else EXIF `ImageDescription`. `source` names where `altText` or `description`
 * came from.
 */
export interface EmbeddedText {
  altText?: string;
  extendedDescription?: string;
  description?: string;
  /** The IPTC fields live in XMP (IIM has no accessibility fields); 'iptc-extended' when that is all. */
  source: 'iptc-alt' | 'iptc-extended' | 'xmp-description' | 'exif-description';
}

/** Only the start of a file is read: metadata sits before the pixels in every format we take. */
export const EMBEDDED_SCAN_BYTES = 256 * 1024;
/** One metadata block (an XMP packet, an EXIF block) is never inflated or parsed beyond this. */
const MAX_BLOCK_BYTES = 128 * 1024;
export const MAX_EMBEDDED_CHARS = 1000;

/** What cameras and editors write into the description field when nobody wrote one. */
const junkDescriptions = [
  /^(olympus|sony|nikon|canon|kodak|samsung|panasonic|fujifilm|pentax|minolta|konica|casio|ricoh|sanyo|lg|huawei|apple|google)\b.*$/i,
  /^digital (still )?camera$/i,
  /^(sony )?dsc$/i,
  /^(created|edited|made|processed) (with|by|in) /i,
  /^(lead technologies|adobe|gimp|photoshop|screenshot|default|untitled|no description|description|n\/a|none)\b/i,
  /^(img|dsc|dscn|dscf|pict|p\d|image|photo)[-_ ]?\d+\b/i,
];

/** Strips NUL and control characters, collapses whitespace and caps the length. */
function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\ufeff]/g, ' ');
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  return clean.length <= MAX_EMBEDDED_CHARS ? clean : `${clean.slice(0, MAX_EMBEDDED_CHARS - 1).trimEnd()}…`;
}

/** A value a person wrote about this image, not a camera's model string, a file name or a placeholder. */
function meaningful(value: unknown, cameraWords: string[]): string | undefined {
  const text = cleanText(value);
  if (!text || !/\p{L}{2}/u.test(text)) return undefined;
  if (!isDescriptiveAlt(text)) return undefined;
  if (junkDescriptions.some((pattern) => pattern.test(text))) return undefined;
  const lower = text.toLowerCase();
  if (cameraWords.some((word) => word && (lower === word || lower.startsWith(`${word} `)))) return undefined;
  return text;
}

/** A lang-alt value as exifr gives it: a string, `{lang, value}` or a list of them; x-default first. */
function langAlt(value: unknown): unknown {
  const entries = Array.isArray(value) ? value : [value];
  const pick = (entry: unknown) =>
    entry && typeof entry === 'object' && 'value' in entry ? (entry as { value: unknown }).value : entry;
  const preferred = entries.find(
    (entry) => entry && typeof entry === 'object' && (entry as { lang?: unknown }).lang === 'x-default',
  );
  return pick(preferred ?? entries[0]);
}

type Blocks = { xmp?: Uint8Array; tiff?: Uint8Array; jpeg?: Uint8Array };

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('latin1');

/** PNG: the XMP packet (iTXt or zTXt `XML:com.adobe.xmp`) and the `eXIf` chunk. */
function pngBlocks(bytes: Uint8Array): Blocks {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks: Blocks = {};
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, at + 8);
    const start = at + 8;
    const end = start + length;
    if (end > bytes.length || type === 'IDAT' || type === 'IEND') break;
    const data = bytes.subarray(start, end);
    if (type === 'eXIf') blocks.tiff = data;
    if (type === 'iTXt' || type === 'zTXt') {
      const keywordEnd = data.indexOf(0);
      if (keywordEnd > 0 && ascii(data, 0, keywordEnd) === 'XML:com.adobe.xmp')
        blocks.xmp = pngText(type, data, keywordEnd);
    }
    at = end + 4;
  }
  return blocks;
}

function pngText(type: string, data: Uint8Array, keywordEnd: number): Uint8Array | undefined {
  const inflate = (packed: Uint8Array) => inflateSync(packed, { maxOutputLength: MAX_BLOCK_BYTES });
  if (type === 'zTXt') return inflate(data.subarray(keywordEnd + 2));
  // iTXt: keyword\0 compressed-flag method language\0 translated-keyword\0 text
  const compressed = data[keywordEnd + 1] === 1;
  let at = keywordEnd + 3;
  for (let nul = 0; nul < 2; nul++) {
    const next = data.indexOf(0, at);
    if (next < 0) return undefined;
    at = next + 1;
  }
  const text = data.subarray(at);
  return compressed ? inflate(text) : text;
}

/** WebP (RIFF): the `XMP ` and `EXIF` chunks. */
function webpBlocks(bytes: Uint8Array): Blocks {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks: Blocks = {};
  let at = 12;
  while (at + 8 <= bytes.length) {
    const type = ascii(bytes, at, at + 4);
    const length = view.getUint32(at + 4, true);
    const start = at + 8;
    const end = start + length;
    if (end > bytes.length) break;
    const data = bytes.subarray(start, end);
    if (type === 'XMP ') blocks.xmp = data;
    if (type === 'EXIF') blocks.tiff = ascii(data, 0, 6) === 'Exif\0\0' ? data.subarray(6) : data;
    at = end + (length & 1);
  }
  return blocks;
}

function findBlocks(bytes: Uint8Array): Blocks {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { jpeg: bytes };
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return pngBlocks(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return webpBlocks(bytes);
  return {};
}

type Parsed = Record<string, Record<string, unknown> | undefined>;

async function parseBlocks(blocks: Blocks): Promise<Parsed> {
  const tiffOptions = { ifd0: { pick: ['ImageDescription', 'Make', 'Model'] }, exif: false, gps: false };
  const common = { mergeOutput: false, silentErrors: true, chunked: false, translateValues: false } as const;
  if (blocks.jpeg)
    return (
      (await exifr.parse(blocks.jpeg, { ...common, ...tiffOptions, xmp: true, iptc: false, icc: false })) ??
      {}
    );
  const parsed: Parsed = {};
  if (blocks.xmp && blocks.xmp.length <= MAX_BLOCK_BYTES)
    Object.assign(parsed, (await exifr.sidecar(blocks.xmp, { ...common }, 'xmp')) ?? {});
  if (blocks.tiff && blocks.tiff.length <= MAX_BLOCK_BYTES)
    Object.assign(parsed, (await exifr.parse(blocks.tiff, { ...common, ...tiffOptions })) ?? {});
  return parsed;
}

/**
 * The alt text and descriptions embedded in a JPEG, PNG or WebP, or null when it carries none worth
 * using. Reads at most EMBEDDED_SCAN_BYTES; a truncated or hostile file gives null, never an error.
 */
export async function readEmbeddedText(bytes: Uint8Array): Promise<EmbeddedText | null> {
  let parsed: Parsed;
  try {
    parsed = await parseBlocks(findBlocks(bytes.subarray(0, EMBEDDED_SCAN_BYTES)));
  } catch {
    return null;
  }
  const iptc = parsed.Iptc4xmpCore ?? {};
  const ifd0 = parsed.ifd0 ?? {};
  const cameraWords = [ifd0.Make, ifd0.Model].map((word) => cleanText(word)?.toLowerCase() ?? '');
  const altText = meaningful(langAlt(iptc.AltTextAccessibility), cameraWords);
  const extendedDescription = cleanText(langAlt(iptc.ExtDescrAccessibility));
  const xmpDescription = meaningful(langAlt(parsed.dc?.description), cameraWords);
  const exifDescription = meaningful(ifd0.ImageDescription, cameraWords);
  const description = xmpDescription ?? exifDescription;
  const source = altText
    ? 'iptc-alt'
    : xmpDescription
      ? 'xmp-description'
      : exifDescription
        ? 'exif-description'
        : null;
  if (!source) return extendedDescription ? { extendedDescription, source: 'iptc-extended' } : null;
  return {
    ...(altText ? { altText } : {}),
    ...(extendedDescription ? { extendedDescription } : {}),
    ...(description ? { description } : {}),
    source,
  };
}

/** An embedded description is used as the alt only when it is alt-sized; a longer one is a caption. */
const MAX_EMBEDDED_DESCRIPTION_AS_ALT = 150;

/** The embedded text that stands in for a human's alt, and what to call it for the reviewer. */
function embeddedAlt(embedded: EmbeddedText | null): { text: string; label: string } | undefined {
  if (embedded?.altText) return { text: embedded.altText, label: 'IPTC Alt Text (Accessibility)' };
  const description = embedded?.description;
  if (!description || description.length > MAX_EMBEDDED_DESCRIPTION_AS_ALT) return undefined;
  return {
    text: description,
    label: embedded.source === 'xmp-description' ? 'XMP description' : 'EXIF image description',
  };
}

/**
 * Alt text embedded in the file counts as the human's alt (point 7; ADR 055): it is the
 * context's existing alt when the page gave none (the page's own alt wins). Every path that hands an
 * image to an engine (uploads, scraped and imported images, audit fixes, the batch CLI) goes through
 * this and withEmbeddedEvidence, so the offline and openai engines get the same evidence.
 */
export function withEmbeddedAlt(context: PageContext, embedded: EmbeddedText | null): PageContext {
  const alt = embeddedAlt(embedded);
  if (!alt || context.existingAlt?.trim()) return context;
  return { ...context, existingAlt: alt.text };
}

/**
 * The engine's result with the embedded evidence named as such: the existing-alt reason it came from
 * becomes `embedded`, and an embedded extended description is the long description when the engine
 * wrote none. Its `origin` says whose words the alt text is (ADR 057).
 */
export function withEmbeddedEvidence(
  result: AltTextResult,
  context: PageContext,
  embedded: EmbeddedText | null,
): AltTextResult {
  const alt = embeddedAlt(embedded);
  const fromFile = alt !== undefined && context.existingAlt === alt.text;
  // Provenance (ADR 057): an existing alt the engine kept word for word is the person's or the file's.
  const origin = result.decorative ? 'ai' : resultOrigin(result.altText, context.existingAlt, fromFile);
  if (!embedded) return { ...result, origin };
  const reasons = fromFile
    ? result.reasons.map((reason) =>
        reason.source === 'existingAlt'
          ? { ...reason, source: 'embedded' as const, detail: `${alt.label}: ${reason.detail}` }
          : reason,
      )
    : result.reasons;
  const longDescription =
    result.longDescription ?? (result.decorative ? null : fitLongDescription(embedded.extendedDescription));
  return { ...result, reasons, longDescription, origin };
}
