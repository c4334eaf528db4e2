import type { GenerateTextOptions } from '../types.ts';

/**
 * The offline `generateText`: without a language model it cannot write prose with facts, so it
 * writes an honest, structured draft from the prompt itself — a title, sections to fill in and
 * the prompt's own key terms — and says that it is a draft. It never invents facts or figures.
 */

const stopwords = new Set(
  'a an the and or but of for to in on at by with about from into over under this that these those is are was were be been being it its as your our my their his her you we they i me us them write writes writing generate create make give blog post article caption captions instagram please some tone category formal informal humorous funny style short long words paragraph paragraphs using use about regarding'.split(
    ' ',
  ),
);

export function writeDraft(prompt: string, options: GenerateTextOptions = {}): string {
  const clean = prompt.replace(/\s+/g, ' ').trim();
  const topic = extractTopic(clean);
  const terms = keyTerms(clean).slice(0, 5);
  const tone = /\bhumou?rous|funny|playful\b/i.test(clean)
    ? 'humorous'
    : /\binformal|casual|friendly\b/i.test(clean)
      ? 'informal'
      : 'formal';
  const purpose =
    options.purpose ??
    (/\bcaption\b/i.test(clean) ? 'caption' : /\bblog|article|post\b/i.test(clean) ? 'blog-post' : 'text');

  if (purpose === 'caption') {
    const described = /The photo shows: "([^"]*)"/.exec(prompt)?.[1];
    if (described !== undefined)
      return writePhotoCaption(described, /Tone or instructions: "([^"]*)"/.exec(prompt)?.[1]);
    const hashtags = terms.map((t) => `#${t.replace(/[^\p{L}\p{N}]/gu, '')}`).join(' ');
    return [capitalise(topic), hashtags].filter(Boolean).join('\n\n');
  }

  const title = titleCase(topic);
  // Sections any topic has; the writer fills them with facts it can source.
  const sections = ['Why it matters', 'How it works', 'Common mistakes', 'Getting started'];
  const voice =
    tone === 'humorous'
      ? 'Keep it light: open with a relatable moment'
      : tone === 'informal'
        ? 'Talk to the reader directly, in plain words'
        : 'Keep a measured, professional voice';
  const lines = [
    `# ${title}`,
    '',
    `_Draft written offline from your prompt. Add facts, examples and sources before publishing._`,
    '',
    '## Introduction',
    `${capitalise(topic)}: what the reader will learn and why it matters to them. ${voice}.`,
    '',
    ...sections.flatMap((section) => [
      `## ${section}`,
      `- ${section} for ${topic}: the main point in one sentence.`,
      '- One concrete example the reader will recognise.',
      '- A source or figure to back it up.',
      '',
    ]),
    ...(terms.length ? [`Key terms from your prompt: ${terms.join(', ')}.`, ''] : []),
    '## Conclusion',
    `Sum up the main point about ${topic} and give the reader one thing to do next.`,
  ];
  const text = lines.join('\n');
  const maxChars = options.maxTokens ? options.maxTokens * 4 : Number.POSITIVE_INFINITY;
  return text.length > maxChars ? text.slice(0, text.lastIndexOf('\n', maxChars)) : text;
}

const captionStopwords = new Set([
  ...stopwords,
  'photo',
  'photograph',
  'image',
  'picture',
  'shows',
  'showing',
  'there',
  'which',
  'while',
  'close',
  'front',
  'background',
  'foreground',
  'small',
  'large',
  'left',
  'right',
  'centre',
  'center',
  'close-up',
  'photograph',
  'tones',
  'tone',
  'colours',
  'colors',
  'dark',
  'bright',
  'light',
  ...'against near next beside behind between along across around through above below onto inside outside during'.split(
    ' ',
  ),
  // Colours say little as hashtags; the sentence keeps them.
  ...'white black grey gray brown navy beige gold silver teal orange purple pink yellow green blue red'.split(
    ' ',
  ),
]);

/**
 * A social caption from what the alt-text engine saw (the studio's prompt quotes the description
 * and the tone): the description as the caption's sentence, a closing line in the asked tone that
 * states no fact, and hashtags from the description's own words. Nothing is invented.
 */
export function writePhotoCaption(description: string, tone = ''): string {
  const sentence = capitalise(
    description
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^(?:an?\s+)?(?:photo(?:graph)?|image|picture|close-up)\s+(?:of|showing)\s+/i, '')
      .replace(/[.!?\s]+$/, ''),
  );
  const wanted = tone.toLowerCase();
  const closing = /humou?r|funny|playful|witty|joke|silly/.test(wanted)
    ? 'Ten out of ten, no notes.'
    : /inspir|motivat|uplift/.test(wanted)
      ? 'Little moments, big inspiration.'
      : /excit|energ|hype|bold/.test(wanted)
        ? 'Loving this one!'
        : /formal|professional|business|corporate|minimal/.test(wanted)
          ? ''
          : /calm|peace|relax|cosy|cozy|soft/.test(wanted)
            ? 'Slow down and enjoy the view.'
            : 'A moment worth sharing.';
  const counts = new Map<string, number>();
  for (const raw of description.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu) ?? []) {
    const word = raw.replace(/['-]+$/, '');
    if (word.length < 4 || captionStopwords.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const hashtags = [...counts.keys()]
    .slice(0, 3)
    .map((word) => `#${word.replace(/[^\p{L}\p{N}]/gu, '')}`)
    .join(' ');
  const line = sentence
    ? `${sentence}.${closing ? ` ${closing}` : ''}`
    : closing || 'A moment worth sharing.';
  return [line, hashtags].filter(Boolean).join('\n\n');
}

function extractTopic(prompt: string): string {
  const about = /\b(?:about|on|regarding|for|of)\s+(.+)$/i.exec(prompt);
  const colon = /:\s*(.+)$/.exec(prompt);
  const topic = (colon?.[1] ?? about?.[1] ?? prompt)
    .replace(/\b(in an? )?(formal|informal|humorous|funny|casual) (tone|style)\b/gi, '')
    .replace(/\b(tone|category)\s*[:=]\s*\w+/gi, '')
    .replace(/[.!?,;\s]+$/, '')
    .trim();
  return topic || prompt;
}

function keyTerms(prompt: string): string[] {
  const counts = new Map<string, number>();
  for (const word of prompt.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    if (word.length < 4 || stopwords.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const smallWords = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'for',
  'of',
  'in',
  'on',
  'at',
  'to',
  'by',
  'with',
]);

function titleCase(text: string): string {
  const titled = text.replace(/[\p{L}][\p{L}'’-]*/gu, (word) =>
    smallWords.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1),
  );
  return capitalise(titled);
}
