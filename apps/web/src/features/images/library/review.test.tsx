import { describe, expect, it } from 'vitest';
import { reasonLabel } from './review.tsx';

describe('reasonLabel', () => {
  it('names an audit check the generated alt failed (ADR 054) in words, not by its source code', () => {
    expect(reasonLabel('audit')).toBe('Audit check');
    expect(reasonLabel('ocr')).toBe('Text in the image');
  });
});
