import { describe, expect, it } from 'vitest';
import { contentWordRecall, contentWords } from '../../bench/recall.ts';

// Worked by hand from the metric in the quality-dev set's README.
describe('content-word recall', () => {
  it('drops stop words and one-letter words, and strips one ending', () => {
    expect([...contentWords('A photo of two dogs running in the park, 3 x cities')]).toEqual([
      'dog',
      'runn',
      'park',
      'city',
    ]);
  });

  it('is the share of the reference’s distinct words the generated text uses', () => {
    // reference words: black, cat, sitt, window → generated has cat, window
    expect(contentWordRecall('A black cat sitting by a window.', 'Cats at the windows.')).toBe(0.5);
    expect(contentWordRecall('Peter Taylor', 'Portrait of Peter Taylor, smiling.')).toBe(1);
    expect(contentWordRecall('Dogs and churches', 'A dog by a church')).toBe(1);
    expect(contentWordRecall('An aerial view of tents', 'Photograph in green tones.')).toBe(0);
  });

  it('counts each reference word once', () => {
    expect(contentWordRecall('dog dog dog cat', 'a dog')).toBe(0.5);
  });
});
