import { MAX_LONG_DESCRIPTION_CHARS } from '@altwise/contracts/generation';
import type { RoleDecision } from './role.ts';
import type { PageContext } from './types.ts';

/**
 * Prompts for language-model providers: the same rules the offline engine follows, in words, with
 * every piece of page context, the image's role and what the W3C alt decision tree says to do for it,
 * and a JSON answer the engine can check.
 */

export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The answer every alt-text prompt asks for, in the words the model sees. */
export const answerFormat =
  '{"altText": string, "decorative": boolean, "confidence": number from 0 to 1, "longDescription": string or null}';

export function altTextSystemPrompt(options: { maxLength: number; language: string }): string {
  return [
    'You write alt text for images on web pages, for people who use screen readers.',
    'Rules:',
    `- Write in ${languageName(options.language)}.`,
    `- At most ${options.maxLength} characters. One or two short sentences; the most important thing first.`,
    '- Follow the W3C alt decision tree: an image that is the only content of a link or button gets alt text that says where the link goes or what the button does; an image whose information is already in the text next to it, or that is pure decoration, is decorative; an informative image gets a short description of what it conveys on this page.',
    '- Describe what matters in the image: the subject, what it is doing, the setting, and any text that carries meaning (quote it).',
    '- Do not begin with "Image of", "Picture of" or "Photo of". Say "Photograph", "Illustration", "Chart", "Screenshot" or "Logo" only when the kind of image matters.',
    '- Use the page context to name people, places, products and events only when the image is consistent with it. Never name anything that is neither in the image nor in the page context.',
    '- Never guess age, gender, ethnicity or health. Mention an expression only when it is obvious, such as smiling.',
    '- Never use the file name as alt text.',
    '- A decorative image gets "decorative": true and "altText": "".',
    `- "longDescription" only for a chart, diagram, infographic or other complex image whose information does not fit in the alt text: its title, then every label with its value (or every part and how they connect) in reading order, as plain sentences, at most ${MAX_LONG_DESCRIPTION_CHARS} characters. The altText then names the kind and the subject (for example "Bar chart: visitors per month, January to June"). For every other image "longDescription": null.`,
    '- Use an SEO keyword only where it truthfully describes what the image shows; never stuff keywords.',
    '- "confidence" is how sure you are that the alt text is right and names the main subject correctly: 0.9 or more only when the image is clear and the context agrees, below 0.5 when you are guessing.',
    `Reply with JSON only, no prose and no code fence: ${answerFormat}`,
  ].join('\n');
}

/** Each context field as the model sees it; `role` and `linkText` are told in the role section. */
const contextLabels: Array<[keyof PageContext, string]> = [
  ['pageTitle', 'Page title'],
  ['heading', 'Nearest heading'],
  ['caption', 'Figure caption'],
  ['surroundingText', 'Text next to the image'],
  ['linkTarget', 'The image links to'],
  ['linkText', 'The link’s or button’s own text (without the image)'],
  ['existingAlt', 'Existing alt text on the page'],
  ['fileName', 'File name (not a description)'],
  ['pageUrl', 'Page address'],
  ['siteName', 'Site name'],
];

/**
 * What the W3C alt decision tree says to do for this image's role, with the decision the page
 * context already supports (a link's name from its target, a repeated caption).
 */
export function roleInstruction(context: PageContext, decision: RoleDecision): string {
  const lines: string[] = [];
  const control = context.role === 'button' ? 'button' : 'link';
  if ((context.role === 'link' || context.role === 'button') && context.linkText) {
    lines.push(
      decision.kind === 'decorative'
        ? `Image role: inside a ${control} whose own text is “${context.linkText}”. That text is the ${control}’s name; if it already says what the image conveys, the image is decorative: answer "decorative": true and "altText": "". Otherwise give only what the image adds, without repeating the ${control}’s text.`
        : `Image role: inside a ${control} whose own text (“${context.linkText}”) does not say where it goes. Write alt text that, read together with that text, says where the ${control} goes or what it does.`,
    );
  } else if (context.role === 'link' || context.role === 'button') {
    const linksToImage =
      decision.kind === 'describe' && decision.reasons.some((reason) => reason.source === 'link');
    if (linksToImage) {
      lines.push(
        'Image role: the only content of a link to a larger version of the same image. Describe the picture.',
      );
    } else {
      lines.push(
        context.role === 'link'
          ? `Image role: the only content of a link${context.linkTarget ? ` to ${context.linkTarget}` : ''}. Its alt text is the link’s name: say where the link goes or what it does (for example "Pricing" or "Altwise home"), not what the picture looks like.`
          : 'Image role: the only content of a button. Its alt text is the button’s name: say what the button does (for example "Search" or "Close menu"), not what the icon looks like.',
      );
      if (decision.kind === 'functional') {
        lines.push(
          `Suggested name from the page: “${decision.altText}”. Use it unless the image clearly shows a better name for the same destination or action (such as the words of a logo).`,
        );
      }
    }
  } else if (context.role === 'figure') {
    lines.push(
      'Image role: in a figure; its caption is read with it. Do not repeat the caption word for word: describe what the image shows that the caption leaves out, or answer "decorative": true if the caption already says everything the image shows.',
    );
  } else {
    lines.push(
      'Image role: in the page’s running content. Describe what the image conveys on this page; if it only repeats the text next to it, or is pure decoration, answer "decorative": true.',
    );
    if (decision.kind === 'functional')
      lines.push(
        `${decision.reasons[0]?.detail ?? 'The page says what it means'}. Suggested alt text: “${decision.altText}”. Use it unless the image clearly shows otherwise.`,
      );
  }
  if (decision.kind === 'decorative' && !context.linkText) {
    lines.push(
      `${decision.reasons[0]?.detail ?? 'Its information is already in the text next to it'}: by the W3C alt decision tree the image is then decorative (alt=""), unless it shows something the text does not say.`,
    );
  }
  return lines.join('\n');
}

export function altTextUserPrompt(options: {
  context: PageContext;
  decision: RoleDecision;
  prompt?: string;
  keywords?: string[];
  maxLength: number;
  language: string;
}): string {
  const lines: string[] = [];
  const context = contextLabels
    .filter(([key]) => options.context[key])
    .map(([key, label]) => `- ${label}: ${options.context[key]}`);
  lines.push(
    context.length ? `Page context:\n${context.join('\n')}` : 'There is no page context for this image.',
  );
  lines.push(roleInstruction(options.context, options.decision));
  if (options.context.siteLogo && options.context.role !== 'link' && options.context.role !== 'button')
    lines.push(
      'The image looks like the site’s own logo (in the page’s banner, called a logo): its alt text is the name it shows, else the site’s name; never "logo" or its colours.',
    );
  const keywords = options.keywords?.map((keyword) => keyword.trim()).filter(Boolean) ?? [];
  if (keywords.length) {
    lines.push(
      `SEO keywords: ${keywords.join(', ')}. Use one only where it truthfully describes what the image shows; otherwise leave it out.`,
    );
  }
  if (options.prompt?.trim()) {
    lines.push(`Instruction from the user (follow it unless it breaks a rule): ${options.prompt.trim()}`);
  }
  lines.push(
    `Write the alt text for the attached image in ${languageName(options.language)}, at most ${options.maxLength} characters. Reply with JSON only: ${answerFormat}`,
  );
  return lines.join('\n\n');
}

/** The follow-up message after an answer the engine could not use: what was wrong and what to send. */
export function correctiveMessage(problem: string, maxLength: number): string {
  return `${problem} Answer again with JSON only, no prose and no code fence: ${answerFormat}. The altText must be at most ${maxLength} characters, or "" with "decorative": true.`;
}
