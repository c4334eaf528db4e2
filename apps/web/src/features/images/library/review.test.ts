import { describe, expect, it } from 'vitest';
import { reasonLabel } from './review.tsx';

describe('reasonLabel', () => {
  it('names alt text embedded in the image file (ADR 055) in words, not by its code', () => {
    expect(reasonLabel('embedded')).toBe('In the image file');
  });

  it('falls back to the code for a source it does not know', () => {
    expect(reasonLabel('something-new')).toBe('something-new');
  });
});
