/**
 * The images of a post's `content.raw` (block editor or classic) and the one edit Altwise makes to
 * it: an image's alt, in its `<img alt>` and, when the block stores one, the block's `alt`
 * attribute (ADR 056). Everything else of the content is kept byte for byte. The scan is linear in
 * the content's length, whatever it holds.
 */

export type ContentImage = {
  /** The attachment, by its `wp-image-{id}` class or by one of its URLs; null when neither. */
  mediaId: number | null;
  /** The alt as written, entities decoded; null when the tag has none. */
  alt: string | null;
  /**
   * Marked decorative on WordPress (ADR 069): its `wp:image` block says `"decorative":true`, or the
   * tag carries `data-decorative`, `role="presentation"`/`"none"` or `aria-hidden="true"`. Only a
   * marked `alt=""` is decorative; an unmarked one is an alt nobody wrote.
   */
  decorative: boolean;
  start: number;
  end: number;
};

const imgStart = /<img\b/gi;
const altAttribute = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const srcAttribute = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const classAttribute = /\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const roleAttribute = /\srole\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const hiddenAttribute = /\saria-hidden\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const decorativeAttribute = /\sdata-decorative(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?(?=[\s/>])/i;
const BLOCK_COMMENT = '<!-- wp:';
/** A block comment longer than this is not read for a decorative mark (its attributes are small). */
const MAX_BLOCK_COMMENT_CHARS = 4096;

/** The tag says the image is decorative (ADR 069). */
function tagMarkedDecorative(tag: string): boolean {
  const data = decorativeAttribute.exec(tag);
  if (data) {
    const value = (data[1] ?? data[2] ?? data[3] ?? '').trim().toLowerCase();
    if (value !== 'false' && value !== '0') return true;
  }
  const role = attribute(tag, roleAttribute)?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  return attribute(tag, hiddenAttribute)?.trim().toLowerCase() === 'true';
}

/** The `wp:image` block comment at `start` says `"decorative":true`. */
function blockMarkedDecorative(raw: string, start: number): boolean {
  if (!raw.startsWith('<!-- wp:image ', start)) return false;
  const end = raw.indexOf('-->', start);
  if (end < 0 || end - start > MAX_BLOCK_COMMENT_CHARS) return false;
  const json = raw
    .slice(start + '<!-- wp:image '.length, end)
    .trim()
    .replace(/\/$/, '')
    .trim();
  try {
    const attributes = JSON.parse(json) as unknown;
    return (
      typeof attributes === 'object' &&
      attributes !== null &&
      (attributes as Record<string, unknown>).decorative === true
    );
  } catch {
    return false;
  }
}

function attribute(tag: string, pattern: RegExp): string | null {
  const match = pattern.exec(tag);
  if (!match) return null;
  return match[1] ?? match[2] ?? match[3] ?? '';
}

export function decodeEntities(value: string): string {
  return value.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|quot|apos|lt|gt|nbsp);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'nbsp') return '\u00a0';
    const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number(lower.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The address without query or fragment, so `photo.jpg?ver=2` matches `photo.jpg`. */
export function bareUrl(address: string): string {
  const cut = address.search(/[?#]/);
  return (cut >= 0 ? address.slice(0, cut) : address).replace(/^https?:/i, '');
}

/** Every `<img>` of the content, in order, with the attachment it shows when known. */
export function listContentImages(raw: string, mediaByUrl: Map<string, number>): ContentImage[] {
  const images: ContentImage[] = [];
  // A tag's start by regex, its end by indexOf, the next search after that end: linear even for
  // content full of unclosed tags (a `[^>]*>` regex would rescan the rest of the text at each one).
  const starts = new RegExp(imgStart.source, imgStart.flags);
  // The nearest block comment before each image, found by a forward search that never goes back.
  let block = -1;
  let nextBlock = raw.indexOf(BLOCK_COMMENT);
  for (let match = starts.exec(raw); match; match = starts.exec(raw)) {
    while (nextBlock >= 0 && nextBlock < match.index) {
      block = nextBlock;
      nextBlock = raw.indexOf(BLOCK_COMMENT, nextBlock + BLOCK_COMMENT.length);
    }
    const close = raw.indexOf('>', match.index);
    if (close < 0) break;
    const tag = raw.slice(match.index, close + 1);
    starts.lastIndex = close + 1;
    const classes = attribute(tag, classAttribute) ?? '';
    const byClass = /(?:^|\s)wp-image-(\d{1,12})(?:\s|$)/.exec(classes)?.[1];
    const src = attribute(tag, srcAttribute);
    const bySrc = src ? mediaByUrl.get(bareUrl(decodeEntities(src))) : undefined;
    const alt = attribute(tag, altAttribute);
    images.push({
      mediaId: byClass ? Number(byClass) : (bySrc ?? null),
      alt: alt === null ? null : decodeEntities(alt),
      decorative: tagMarkedDecorative(tag) || (block >= 0 && blockMarkedDecorative(raw, block)),
      start: match.index,
      end: close + 1,
    });
  }
  return images;
}

/**
 * The content with each `alt=""` nobody marked decorative left out (ADR 069), for the import's
 * audit: an empty alt on WordPress is most often the block editor's default, not a person's
 * choice, so the audit checks it as missing. `markedInRaw` says whether the raw content marks that
 * use of the attachment (the rendered HTML drops block comments); the tag's own marks count too.
 */
export function withoutUnmarkedEmptyAlts(
  html: string,
  mediaByUrl: Map<string, number>,
  markedInRaw: (image: ContentImage, occurrence: number) => boolean,
): string {
  const images = listContentImages(html, mediaByUrl);
  const seen = new Map<number, number>();
  let out = '';
  let at = 0;
  for (const image of images) {
    const occurrence = image.mediaId === null ? 0 : (seen.get(image.mediaId) ?? 0);
    if (image.mediaId !== null) seen.set(image.mediaId, occurrence + 1);
    if (image.alt !== '' || image.decorative || markedInRaw(image, occurrence)) continue;
    const tag = html.slice(image.start, image.end);
    const match = altAttribute.exec(tag);
    if (!match) continue;
    out += html.slice(at, image.start) + tag.slice(0, match.index) + tag.slice(match.index + match[0].length);
    at = image.end;
  }
  return out + html.slice(at);
}

/** The `n`-th image (from 0) of this attachment in the content; undefined when there is none. */
export function findOccurrence(
  raw: string,
  mediaByUrl: Map<string, number>,
  mediaId: number,
  occurrence: number,
): ContentImage | undefined {
  return listContentImages(raw, mediaByUrl).filter((image) => image.mediaId === mediaId)[occurrence];
}

/** How WordPress writes a block's attributes into its comment (serialize_block_attributes). */
function serializeBlockAttributes(attributes: unknown): string {
  return JSON.stringify(attributes)
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');
}

/**
 * The content with this image's alt set to `alt`: the `<img>` tag's alt attribute (added when
 * missing) and, if the enclosing `wp:image` block's comment has an `alt` attribute, that one too.
 */
export function setImageAlt(raw: string, image: ContentImage, alt: string): string {
  const tag = raw.slice(image.start, image.end);
  const escaped = escapeAttribute(alt);
  const match = altAttribute.exec(tag);
  const newTag = match
    ? `${tag.slice(0, match.index)} alt="${escaped}"${tag.slice(match.index + match[0].length)}`
    : tag.replace(/^<img\b/i, `<img alt="${escaped}"`);
  let before = raw.slice(0, image.start);
  const blockStart = before.lastIndexOf('<!-- wp:');
  if (blockStart >= 0 && before.startsWith('<!-- wp:image ', blockStart)) {
    const jsonStart = blockStart + '<!-- wp:image '.length;
    const jsonEnd = before.indexOf(' -->', jsonStart);
    if (jsonEnd > jsonStart) {
      try {
        const attributes = JSON.parse(before.slice(jsonStart, jsonEnd)) as Record<string, unknown>;
        if (attributes && typeof attributes === 'object' && 'alt' in attributes) {
          attributes.alt = alt;
          before = `${before.slice(0, jsonStart)}${serializeBlockAttributes(attributes)}${before.slice(jsonEnd)}`;
        }
      } catch {
        // Not JSON we understand: the block comment is left as it is.
      }
    }
  }
  return `${before}${newTag}${raw.slice(image.end)}`;
}
