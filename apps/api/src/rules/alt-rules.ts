/**
 * The one rulebook (point 8, ADR 054): the word lists and patterns that say what a usable
 * alt text is not. The audit's checks (rules/checks.ts) judge pages with them, and the
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

/** Longer than this many characters is the audit's `too-long`. */
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
 * Openers that announce the medium or the control, which screen readers already do ("Image of",
 * "Picture of", "Graphic of", "This photo shows", "photo of a photo of", "Link to"). "Photograph of",
 * "Chart of", "Illustration of" are not here: there the kind is information. The audit warns about
 * them (`announces-medium`, ADR 060) and the engine removes them (quality-rules.ts).
 */
export const announcingOpener =
  /^(?:(?:this|the)\s+(?:image|picture|photo|photograph|pic|graphic)\s+(?:shows|depicts|features|contains|is of|displays)\s+|(?:an?\s+)?(?:image|picture|pic|photo|graphic)\s+(?:of|showing|depicting|featuring)\s+(?:(?:an?\s+)?(?:photo|picture|image)\s+of\s+)?|(?:an?\s+)?photo(?:graph)?\s+of\s+(?:an?\s+)?(?:photo|picture|image)\s+of\s+|(?:a\s+)?link\s+to\s+|image:\s*)/i;

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

/** Words that carry no subject: left out when counting a word's repeats or comparing two texts. */
export const functionWords: ReadonlySet<string> = new Set([
  'the',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'for',
  'at',
  'by',
  'with',
  'from',
  'into',
  'onto',
  'a',
  'an',
  'is',
  'are',
  'was',
  'were',
  'be',
  'its',
  'it',
  'this',
  'that',
  'these',
  'those',
  'our',
  'your',
  'their',
  'his',
  'her',
  'my',
  'as',
  'but',
  'not',
  'no',
  'than',
  'then',
]);

/** The content words of a text, lower case, plurals folded ("tulips" → "tulip"), without function words and numbers. */
export function contentWords(text: string): string[] {
  return normaliseForComparison(text)
    .split(' ')
    .filter((word) => word.length >= 3 && !functionWords.has(word) && !/^\d+$/.test(word))
    .map((word) =>
      word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

/** The same content word this many times in one alt is keyword stuffing. */
export const stuffedWordRepeats = 3;
/** …when that word is at least this share of the alt's content words. */
export const stuffedWordShare = 0.25;
/** A run of this many short comma-separated items (1 to 3 words, no "and"/"or") is a keyword list. */
export const keywordListItems = 4;

/**
 * Keyword stuffing in an alt (ADR 060), as the evidence a message quotes, or undefined: the same
 * content word of four letters or more three times or more, making a quarter of the content words
 * ("tulip" in "Tulips, tulip bulbs and a tulip field"), or a run of four or more short (1 to 3
 * words) lower-case comma-, semicolon- or bar-separated items around one search term, two of them
 * sharing a word ("spring flowers, cheap roses, buy roses online, garden shop"). A list a sentence
 * ends with "and" is English ("red, white, blue and green flags"), capitalised items are names and
 * titles ("Davy Jones, Chairman, Carole Brewster, Secretary"), and a list of different things
 * ("musician, songwriter, record producer, drummer") is a list, not search terms.
 */
export function keywordStuffing(text: string): string | undefined {
  const all = contentWords(text);
  const counts = new Map<string, number>();
  // Words of four letters or more: "cut" three times in a recipe's steps is instructions, not SEO.
  for (const word of all) {
    if (word.length >= 4) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  for (const [word, count] of counts) {
    // A quarter of the words: "brown" hair, coat and scarf in a 30-word description is a description.
    if (count >= stuffedWordRepeats && count / all.length >= stuffedWordShare)
      return `the word “${word}” ${count} times`;
  }
  // Four items need three separators: most alts stop here.
  if ((text.match(/[,;|]/g)?.length ?? 0) < keywordListItems - 1) return undefined;
  let run: string[][] = [];
  let longest: string[][] = [];
  for (const item of text.split(/[,;|]/)) {
    const itemWords = normaliseForComparison(item).split(' ').filter(Boolean);
    // Search terms are written in lower case; "Davy Jones, Chairman, Carole Brewster" are names.
    const capitalised = run.length > 0 && /^\p{Lu}/u.test(item.trim());
    const short =
      itemWords.length >= 1 &&
      itemWords.length <= 3 &&
      !/^(?:and|or|&)$/.test(itemWords[0] ?? '') &&
      !capitalised;
    const words = contentWords(item);
    run = short ? [...run, words] : capitalised ? [words] : [];
    if (run.length > longest.length && sharesAWord(run)) longest = run;
  }
  return longest.length >= keywordListItems ? `a list of ${longest.length} keywords` : undefined;
}

/** Two of the items share a content word ("cheap roses", "buy roses"): a list around one search term. */
function sharesAWord(items: string[][]): boolean {
  const seen = new Set<string>();
  for (const words of items) {
    const own = new Set(words);
    for (const word of own) {
      if (seen.has(word)) return true;
    }
    for (const word of own) seen.add(word);
  }
  return false;
}

/**
 * Words that name a decoration, not a subject (ADR 060): an alt made only of these (and the fillers
 * below) on an image that looks decorative is a decorative image with text ("bullet", "spacer",
 * "blue arrow", "horizontal divider line").
 */
export const decorativeWords: ReadonlySet<string> = new Set([
  'bullet',
  'bullets',
  'spacer',
  'arrow',
  'arrows',
  'line',
  'lines',
  'divider',
  'border',
  'dot',
  'dots',
  'blank',
  'corner',
  'separator',
  'rule',
  'hr',
  'swoosh',
  'ornament',
  'flourish',
  'shadow',
  'gradient',
  'stripe',
  'squiggle',
  'decoration',
  'decorative',
  'pixel',
  'space',
  'clear',
  'shim',
  'transparent',
  'gif',
  'bg',
  'background',
  'round',
  'rounded',
  'curve',
  'edge',
  'tab',
  'cap',
]);
/** Words that may qualify a decorative word without making it a subject ("small red arrow", "left corner"). */
export const decorativeFillers: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'small',
  'little',
  'big',
  'large',
  'thin',
  'thick',
  'left',
  'right',
  'up',
  'down',
  'top',
  'bottom',
  'horizontal',
  'vertical',
  'image',
  'img',
  'icon',
  'graphic',
  'point',
  'list',
  'item',
  'red',
  'blue',
  'green',
  'grey',
  'gray',
  'black',
  'white',
  'orange',
  'yellow',
  'gold',
  'silver',
  'pink',
  'purple',
  'light',
  'dark',
  'next',
  'back',
  'double',
  'single',
  'solid',
  'dotted',
  'dashed',
  'of',
  'and',
]);

/** The decorative words when the alt (normalised) is made only of decorative words and fillers, else undefined. */
export function decorativeOnly(key: string): string | undefined {
  const parts = key.split(' ').filter(Boolean);
  const named = parts.filter((word) => decorativeWords.has(word));
  if (named.length === 0) return undefined;
  const only = parts.every(
    (word) => decorativeWords.has(word) || decorativeFillers.has(word) || /^\d+$/.test(word),
  );
  return only ? named.join(', ') : undefined;
}

/**
 * Words that describe how a picture looks rather than whose it is or what it does (ADR 060): colours,
 * shapes, lettering and the verbs of a description. `describes-appearance` needs two of them in a
 * long alt of a logo or an image link.
 */
export const appearanceWords: ReadonlySet<string> = new Set([
  'red',
  'blue',
  'green',
  'yellow',
  'orange',
  'purple',
  'violet',
  'pink',
  'black',
  'white',
  'grey',
  'gray',
  'brown',
  'gold',
  'golden',
  'silver',
  'teal',
  'navy',
  'turquoise',
  'beige',
  'maroon',
  'colour',
  'colours',
  'color',
  'colors',
  'coloured',
  'colored',
  'circle',
  'circles',
  'circular',
  'square',
  'squares',
  'triangle',
  'triangular',
  'rectangle',
  'rectangular',
  'oval',
  'round',
  'star',
  'stripe',
  'stripes',
  'striped',
  'swirl',
  'swoosh',
  'curved',
  'curve',
  'shape',
  'shapes',
  'shaped',
  'lettering',
  'letters',
  'font',
  'typeface',
  'serif',
  'italic',
  'bold',
  'uppercase',
  'lowercase',
  'stylized',
  'stylised',
  'silhouette',
  'gradient',
  'outline',
  'outlined',
  'background',
  'foreground',
  'shows',
  'showing',
  'depicts',
  'depicting',
  'depicted',
  'features',
  'featuring',
  'consists',
  'consisting',
  'displays',
  'displaying',
  'illustrated',
  'drawn',
]);
/** Phrases of a picture description: "picture of", "image of", "photo of". */
export const appearancePhrases = /\b(?:picture|image|photo|photograph|drawing|graphic|illustration) of\b/g;
