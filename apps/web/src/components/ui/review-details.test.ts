import { describe, expect, it } from 'vitest';
import { reasonLabel } from './review-details.tsx';

describe('reasonLabel', () => {
  it('names alt text embedded in the image file (ADR 055) in words, not by its code', () => {
    expect(reasonLabel('embedded')).toBe('In the image file');
  });

  it('names an audit check the generated alt failed (ADR 054) in words, not by its source code', () => {
    expect(reasonLabel('audit')).toBe('Audit check');
    expect(reasonLabel('ocr')).toBe('Text in the image');
  });

  it('falls back to the code for a source it does not know', () => {
    expect(reasonLabel('something-new')).toBe('something-new');
  });
});
