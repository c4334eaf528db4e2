import { describe, expect, it } from 'vitest';
import { contactRequestSchema } from './contact.ts';
import { buildContentPrompt, generateContentFormSchema, generateContentRequestSchema } from './content.ts';

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));

describe('generateContentFormSchema (the product spec §5)', () => {
  it('says what is missing in the words of the spec', () => {
    expect(issuesOf(generateContentFormSchema.safeParse({ prompt: ' ', tone: '', category: '' }))).toEqual({
      prompt: 'A prompt is required',
      tone: 'Selecting a tone is required',
      category: 'Selecting a category is required',
    });
    expect(
      issuesOf(generateContentFormSchema.safeParse({ prompt: 'x', tone: 'angry', category: 'sport' })),
    ).toEqual({
      tone: 'Selecting a tone is required',
      category: 'Selecting a category is required',
    });
  });

  it('builds a prompt from topic, category and tone that the request accepts', () => {
    const form = generateContentFormSchema.parse({
      prompt: ' alt text ',
      tone: 'humorous',
      category: 'health',
    });
    const prompt = buildContentPrompt(form);
    expect(prompt).toBe('Write a humorous blog post for the health category about: alt text');
    expect(generateContentRequestSchema.parse({ prompt })).toEqual({ prompt });
    const longest = buildContentPrompt({ ...form, prompt: 'x'.repeat(1500) });
    expect(generateContentRequestSchema.safeParse({ prompt: longest }).success).toBe(true);
  });
});

describe('contactRequestSchema', () => {
  it('caps the message at 5,000 characters with a clear message', () => {
    const base = { firstName: 'A', lastName: 'B', email: 'a@example.com' };
    expect(contactRequestSchema.safeParse({ ...base, message: 'x'.repeat(5000) }).success).toBe(true);
    expect(issuesOf(contactRequestSchema.safeParse({ ...base, message: 'x'.repeat(5001) }))).toEqual({
      message: 'Message must be at most 5,000 characters',
    });
  });
});
