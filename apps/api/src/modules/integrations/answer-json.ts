/**
 * How a WordPress answer's JSON is read (ADR 070): in a thread of its own (answer-worker.ts), and
 * only after one linear pass without recursion has found it within a depth and a count of values.
 * JSON.parse then makes at most that many values, and handing them back to the main thread costs
 * that many at most: a hostile site's deep or vast answer is refused before either.
 */

/** Arrays and objects inside one another at most; WordPress's own answers nest fewer than 10. */
export const MAX_ANSWER_DEPTH = 64;
/**
 * Values (each array and object, and each element or member) at most: a page of 100 media items
 * with all their sizes is about 10,000; a page of the import's most images (ADR 070) stays within.
 */
export const MAX_ANSWER_VALUES = 1_000_000;

export type AnswerReading =
  | { ok: true; body: unknown }
  | { ok: false; problem: 'not-json' | 'too-deep' | 'too-many' };

/** Depth and values of a JSON text, counted without recursion; stops at the first limit passed. */
export function measureJson(
  text: string,
  limits: { maxDepth: number; maxValues: number },
): 'too-deep' | 'too-many' | null {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c) at++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limits.maxDepth) return 'too-deep';
      if (++values > limits.maxValues) return 'too-many';
    } else if (code === 0x7d || code === 0x5d) depth--;
    else if (code === 0x2c && ++values > limits.maxValues) return 'too-many';
  }
  return null;
}

/** Reads an answer's bytes as JSON within the limits; a BOM before the JSON is allowed. */
export function readAnswerJson(
  bytes: Uint8Array,
  limits: { maxDepth: number; maxValues: number } = {
    maxDepth: MAX_ANSWER_DEPTH,
    maxValues: MAX_ANSWER_VALUES,
  },
): AnswerReading {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const problem = measureJson(text, limits);
  if (problem) return { ok: false, problem };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'not-json' };
  }
}
