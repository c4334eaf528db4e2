import type { PageContext } from './types.ts';

/** Prompts for language-model providers: the same rules the offline engine follows, in words. */

export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export function altTextSystemPrompt(options: { maxLength: number; language: string }): string {
  return [
    'You write alt text for images on web pages, for people who use screen readers.',
    'Rules:',
    `- Write in ${languageName(options.language)}.`,
    `- At most ${options.maxLength} characters. One or two short sentences; the most important thing first.`,
    '- Describe what matters in the image: the subject, what it is doing, the setting, and any text that carries meaning (quote it).',
    '- Do not begin with "Image of", "Picture of" or "Photo of". Say "Photograph", "Illustration", "Chart", "Screenshot" or "Logo" only when the kind of image matters.',
    '- Use the page context to name people, places, products and events only when the image is consistent with it. Never invent a name or a fact.',
    '- Never guess age, gender, ethnicity or health. Mention an expression only when it is obvious, such as smiling.',
    '- Never use the file name as alt text.',
    '- If the image is purely decorative (a spacer, a plain background, a divider, a tiny icon with no meaning), set "decorative" to true and "altText" to "".',
    '- Use the SEO keywords only where they truthfully describe the image; never stuff them.',
    'Reply with JSON only, no prose: {"altText": string, "decorative": boolean, "textInImage": string or null}',
  ].join('\n');
}

const contextLabels: Array<[keyof PageContext, string]> = [
  ['pageTitle', 'Page title'],
  ['heading', 'Nearest heading'],
  ['caption', 'Figure caption'],
  ['surroundingText', 'Surrounding text'],
  ['linkTarget', 'The image links to'],
  ['existingAlt', 'Existing alt text'],
  ['fileName', 'File name (not a description)'],
  ['pageUrl', 'Page address'],
];

export function altTextUserPrompt(options: {
  context: PageContext;
  prompt?: string;
  keywords?: string[];
  maxLength: number;
}): string {
  const lines: string[] = [];
  const context = contextLabels
    .filter(([key]) => options.context[key])
    .map(([key, label]) => `- ${label}: ${options.context[key]}`);
  lines.push(
    context.length ? `Page context:\n${context.join('\n')}` : 'There is no page context for this image.',
  );
  if (options.keywords?.length) lines.push(`SEO keywords: ${options.keywords.join(', ')}`);
  if (options.prompt?.trim()) {
    lines.push(`Instruction from the user (follow it unless it breaks a rule): ${options.prompt.trim()}`);
  }
  lines.push(`Write the alt text for the attached image, at most ${options.maxLength} characters.`);
  return lines.join('\n\n');
}
