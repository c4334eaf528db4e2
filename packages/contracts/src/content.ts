import { z } from 'zod';
import { contentHistoryItemSchema } from './auth.ts';
import { messages } from './messages.ts';

/** Longest prompt POST /openai/generate-content accepts. */
export const CONTENT_PROMPT_MAX_CHARS = 2000;
/** Longest topic the generator form takes; the built prompt adds the tone and category around it. */
export const CONTENT_TOPIC_MAX_CHARS = 1500;
/** How many history entries (newest first) the history call and the profile return. */
export const CONTENT_HISTORY_LIMIT = 100;

export const contentTones = ['formal', 'informal', 'humorous'] as const;
export type ContentTone = (typeof contentTones)[number];
export const contentCategories = ['technology', 'health', 'business'] as const;
export type ContentCategory = (typeof contentCategories)[number];

const m = messages.generator;

/** The blog-post generator form of the product spec §5: prompt (the topic), tone and category, all required. */
export const generateContentFormSchema = z.object({
  prompt: z
    .string({ error: m.promptRequired })
    .trim()
    .min(1, m.promptRequired)
    .max(
      CONTENT_TOPIC_MAX_CHARS,
      `The prompt must be at most ${CONTENT_TOPIC_MAX_CHARS.toLocaleString('en-US')} characters`,
    ),
  tone: z.enum(contentTones, { error: m.toneRequired }),
  category: z.enum(contentCategories, { error: m.categoryRequired }),
});
export type GenerateContentForm = z.infer<typeof generateContentFormSchema>;

/** The {prompt} the product spec §7 sends, built from topic, category and tone. */
export function buildContentPrompt(form: GenerateContentForm): string {
  return `Write a ${form.tone} blog post for the ${form.category} category about: ${form.prompt.trim()}`;
}

/** POST /openai/generate-content. */
export const generateContentRequestSchema = z.strictObject({
  prompt: z
    .string({ error: m.promptRequired })
    .trim()
    .min(1, m.promptRequired)
    .max(
      CONTENT_PROMPT_MAX_CHARS,
      `The prompt must be at most ${CONTENT_PROMPT_MAX_CHARS.toLocaleString('en-US')} characters`,
    ),
});
export type GenerateContentRequest = z.infer<typeof generateContentRequestSchema>;

/**
 * "Text in response data" (the product spec §7): the generated text is the body's `text`. The stored history
 * entry's time and the engine and model that wrote it come alongside.
 */
export const generateContentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  text: z.string(),
  createdAt: z.string(),
  engine: z.string(),
  model: z.string(),
});
export type GenerateContentResponse = z.infer<typeof generateContentResponseSchema>;

/** GET /users/content-history: the caller's generated texts, newest first. */
export const contentHistoryResponseSchema = z.object({
  contentHistory: z.array(contentHistoryItemSchema),
});
export type ContentHistoryResponse = z.infer<typeof contentHistoryResponseSchema>;
export type ContentHistoryItem = z.infer<typeof contentHistoryItemSchema>;
