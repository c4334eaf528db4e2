import { describe, expect, it } from 'vitest';
import { writeDraft, writePhotoCaption } from '../src/engines/offline/draft-writer.ts';
import { captionPrompt, cleanCaption, MAX_CAPTION_CHARS } from '../src/modules/studio/service.ts';

describe('offline social captions', () => {
  it('turns the description into the caption’s sentence with hashtags from its own words', () => {
    expect(writePhotoCaption('A photo of a dog running on a beach')).toBe(
      'A dog running on a beach. A moment worth sharing.\n\n#running #beach',
    );
  });

  it('matches the asked tone with a closing line that states no fact', () => {
    expect(writePhotoCaption('A cup of coffee', 'make it funny')).toMatch(
      /^A cup of coffee\. Ten out of ten, no notes\./,
    );
    expect(writePhotoCaption('A cup of coffee', 'professional')).toMatch(/^A cup of coffee\.\n\n#coffee$/);
    expect(writePhotoCaption('A cup of coffee', 'inspirational')).toMatch(
      /Little moments, big inspiration\./,
    );
  });

  it('reads the studio’s prompt: the quoted description and tone, nothing else', () => {
    const prompt = captionPrompt('A "red" bicycle against a wall', 'excited');
    expect(prompt).toContain(`The photo shows: "A 'red' bicycle against a wall"`);
    expect(writeDraft(prompt, { purpose: 'caption' })).toBe(
      "A 'red' bicycle against a wall. Loving this one!\n\n#bicycle #wall",
    );
  });

  it('keeps the old caption draft for free-form prompts', () => {
    expect(writeDraft('Instagram caption for a sunset over the harbour', { purpose: 'caption' })).toBe(
      'A sunset over the harbour\n\n#sunset #harbour',
    );
  });
});

describe('cleanCaption', () => {
  it('drops wrapping quotes and a "Caption:" label, and caps the length at a word', () => {
    expect(cleanCaption('  "Sunny days ahead"  ')).toBe('Sunny days ahead');
    expect(cleanCaption('Caption: Hello there')).toBe('Hello there');
    const long = cleanCaption('word '.repeat(200));
    expect(long.length).toBeLessThanOrEqual(MAX_CAPTION_CHARS + 1);
    expect(long).toMatch(/word…$/);
  });
});
