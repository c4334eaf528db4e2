import { z } from 'zod';

/**
 * Text Postgres cannot store: U+0000 is refused by `text` and `jsonb` columns
 * alike, and a lone UTF-16 surrogate cannot be encoded as UTF-8 at all. Before this check, such a
 * character in any field reached the database and came back as a 500. Every request schema of the
 * API goes through `refuseUnstorableText` (the API's validator compiler wraps each one), so every
 * text field, query parameter, path parameter and object key of a request is covered, including
 * fields added later; browser forms can call `unstorableTextMessage` on a value before sending it.
 */

export const NUL_MESSAGE = 'Text cannot contain NUL characters (U+0000)';
export const LONE_SURROGATE_MESSAGE =
  'Text cannot contain broken Unicode (an unpaired UTF-16 surrogate); send it as UTF-8';

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be stored, in words, or null when it can. */
export function unstorableTextMessage(value: string): string | null {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (loneSurrogate.test(value)) return LONE_SURROGATE_MESSAGE;
  return null;
}

type Found = { path: (string | number)[]; message: string };

/** Most problems reported for one request: the first few say what to fix. */
const MAX_REPORTED = 10;

type Node = { value: unknown; key: string | number | null; parent: Node | null };

const pathOf = (node: Node): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * Every string and object key in `value` that cannot be stored, with its path. The walk is
 * iterative and keeps one parent link per value (a path is built only for a problem), so a request
 * nested 10,000 levels deep costs linear time and cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): Found[] {
  const found: Found[] = [];
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (typeof current === 'string') {
      const message = unstorableTextMessage(current);
      if (message) found.push({ path: pathOf(node), message });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: node });
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const message = unstorableTextMessage(key);
        if (message)
          found.push({
            path: pathOf(node),
            message: `A field name is not valid: ${message.replace('Text', 'it')}`,
          });
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: node });
      }
    }
  }
  return found;
}

/**
 * `schema`, after refusing any text in the input that cannot be stored (a 400 with the path of
 * each such field). The one refinement every request schema of the API goes through.
 */
export function refuseUnstorableText<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .superRefine((value, context) => {
      for (const { path, message } of findUnstorableText(value))
        context.addIssue({ code: 'custom', path, message });
    })
    .pipe(schema);
}
