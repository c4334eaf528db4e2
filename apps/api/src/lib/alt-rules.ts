/**
 * The one rulebook (issue 19 point 8, ADR 054): the word lists and patterns that say what a usable
 * alt text is not. The audit's checks (modules/audit/checks.ts) judge pages with them, and the
 * engines (engines/page-context.ts, quality-rules.ts, role.ts) write and weigh alt text with the
 * same ones, so what the engine writes passes what the audit checks. Pure data and small pure
 * functions; no engine or module code lives here.
 */

/** Lower case, NFKC, punctuation and symbols as spaces, whitespace collapsed: "word for word" ignores these. */
export function normaliseForComparison(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Longer than this many characters is the audit's `too-long` (issue 13). */
export const maxAltLength = 150;

/** The file extensions of images ("hero.jpg", "favicon.ico"). */
export const imageExtension = /\.(jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic|heif|ico)$/i;

/** Names cameras, phones and tools give files: "IMG_2041", "DSC0001", "Screenshot 2024-…", "WhatsApp Image 2…". */
export const cameraName =
  /^(img|dsc|dscn|dcim|pxl|image|photo|pic|screenshot|screen shot|untitled|wp|whatsapp image)[\s_-]*\d/i;

/** "IMG_2041.jpg", "DSC0001", "hero-banner-2x.png", or the image's own file name or stem: names, not descriptions. */
export function looksLikeFileName(text: string, fileName?: string): boolean {
  const t = text.trim();
  if (!t) return false;
  if (imageExtension.test(t) && !/\s/.test(t)) return true;
  if (cameraName.test(t)) return true;
  if (/^[\w-]+$/.test(t) && /[_-]/.test(t) && /\d/.test(t)) return true;
  if (fileName) {
    const stem = fileName.replace(/^.*[\\/]/, '').replace(imageExtension, '');
    if (t.toLowerCase() === fileName.toLowerCase() || t.toLowerCase() === stem.toLowerCase()) return true;
  }
  return false;
}

/** A link's target that is the image file itself or a wiki's file page: describing the picture is right there. */
export const imageFilePath = /\.(jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic|heif)$/i;
export const filePage = /(^|\/)(file|image|datei|fichier|archivo|bestand|special:filepath)[:/]/i;
/** Path segments that say nothing about a destination: a language ("en", "de-ch") and a home page ("index.html"). */
export const localeSegment = /^[a-z]{2}(?:[-_][a-z]{2,4})?$/i;
export const homeSegment = /^(index|home|default|start|main)(\.[a-z]{2,5})?$/i;

/** Whole alts (normalised: lower case, punctuation as spaces) that stand in for a description someone meant to write. */
export const placeholderAlts: ReadonlySet<string> = new Set([
  'todo',
  'to do',
  'tbd',
  'tba',
  'fixme',
  'xxx',
  'alt',
  'alt text',
  'alt tag',
  'alt attribute',
  'alternative text',
  'alt text here',
  'alt text goes here',
  'image alt',
  'image alt text',
  'insert alt',
  'no alt',
  'no alt text',
  'missing alt',
  'image',
  'img',
  'photo',
  'picture',
  'pic',
  'graphic',
  'placeholder',
  'untitled',
  'null',
  'undefined',
  'none',
  'n a',
  'nil',
  'empty',
  'blank',
  'spacer',
  'default',
  'test',
  'description',
  'image description',
  'caption',
  'title',
]);

/** Instructions left in the alt: "Insert alt text here", "Add image description", "TODO: hero". */
export const placeholderStart =
  /^(?:(?:todo|tbd|tba|fixme|lorem ipsum)\b|(?:insert|add|enter|write|type|put|your)(?: (?:your|the|an?|image|img))? (?:alt|alternative|description|image description)\b)/;

/** An alt of punctuation only ("-", ".", "*", "…"). */
export const punctuationOnly = /^[\p{P}*+=#~^|`<>\s]+$/u;

/** `name` as written, `key` normalised (lower case, punctuation as spaces). */
export function isPlaceholder(name: string, key: string): boolean {
  return punctuationOnly.test(name) || placeholderAlts.has(key) || placeholderStart.test(key);
}

/** Words that name a kind of image or a slot on the page, not what the image shows. */
export const kindWords: ReadonlySet<string> = new Set([
  'logo',
  'logos',
  'icon',
  'icons',
  'banner',
  'banners',
  'photo',
  'photos',
  'photograph',
  'picture',
  'pictures',
  'pic',
  'pics',
  'image',
  'images',
  'img',
  'graphic',
  'graphics',
  'illustration',
  'screenshot',
  'thumbnail',
  'thumb',
  'avatar',
  'headshot',
  'portrait',
  'chart',
  'graph',
  'diagram',
  'infographic',
  'figure',
  'fig',
  'hero',
  'header',
  'featured',
  'background',
  'bg',
  'decoration',
  'decorative',
  'button',
  'btn',
  'arrow',
  'badge',
  'emblem',
  'symbol',
  'clipart',
  'artwork',
  'drawing',
  'profile',
  'cover',
  'slide',
  'slider',
  'carousel',
  'visual',
]);

/** Words that may sit beside kind words without saying what is shown ("our company logo", "a photo of"). */
export const fillerWords: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'our',
  'my',
  'your',
  'his',
  'her',
  'their',
  'its',
  'of',
  'for',
  'with',
  'showing',
  'here',
  'in',
  'company',
  'brand',
  'site',
  'website',
  'page',
  'main',
  'small',
  'large',
  'big',
  'new',
  'default',
  'generic',
  'stock',
  'sample',
  'example',
]);

/** The kind words when the alt (normalised) is made of kind and filler words only ("company logo"), else undefined. */
export function kindOnly(key: string): string | undefined {
  const parts = key.split(' ').filter(Boolean);
  const kinds = parts.filter((word) => kindWords.has(word));
  if (kinds.length === 0) return undefined;
  const onlyKinds = parts.every((word) => kindWords.has(word) || fillerWords.has(word) || /^\d+$/.test(word));
  return onlyKinds ? kinds.join(', ') : undefined;
}

/**
 * Openers that announce the medium, which screen readers already do ("Image of", "Picture of",
 * "This photo shows", "photo of a photo of"). "Photograph of", "Chart of", "Illustration of" are not
 * here: there the kind is information.
 */
export const announcingOpener =
  /^(?:(?:this|the)\s+(?:image|picture|photo|photograph|pic)\s+(?:shows|depicts|features|contains|is of|displays)\s+|(?:an?\s+)?(?:image|picture|pic|photo)\s+(?:of|showing|depicting|featuring)\s+(?:(?:an?\s+)?(?:photo|picture|image)\s+of\s+)?|(?:an?\s+)?photo(?:graph)?\s+of\s+(?:an?\s+)?(?:photo|picture|image)\s+of\s+|image:\s*)/i;

/** Openers that make an alt a description of a picture ("Photo of…", "A view showing…"), not of a destination. */
export const pictureOpener =
  /^(?:(?:an?|the)\s+)?(?:photo(?:graph)?|picture|image|illustration|drawing|painting|portrait|close-?up|view|shot|snapshot)\s+(?:of|showing|depicting|featuring)\s/iu;

/** Link or image texts (as lower-case words) that say only "more" or "go": they name no destination. */
export const vaguePurposeTexts: ReadonlySet<string> = new Set([
  'more',
  'read more',
  'learn more',
  'see more',
  'view more',
  'more info',
  'details',
  'click here',
  'here',
  'link',
  'go',
  'continue',
  'continue reading',
  'open',
  'view',
]);

/** A link's own text that does not say where it goes: the vague texts and the pager words. */
export const vagueLinkTexts: ReadonlySet<string> = new Set([
  ...vaguePurposeTexts,
  'next',
  'previous',
  'prev',
]);
