import { describe, expect, it } from 'vitest';
import { tidyLineText } from './ocr.ts';

describe('tidyLineText: what the recogniser gets wrong on any graphic', () => {
  it.each([
    ['CALL me when balance exceeds $ 10,000', 'CALL me when balance exceeds $10,000'],
    ['from € 5 a month', 'from €5 a month'],
    ['W3C"', 'W3C'],
    ['"Sale', 'Sale'],
    ['Say "hello" to us', 'Say "hello" to us'],
    ['$ off', '$ off'],
    ['Rate your response', 'Rate your response'],
  ])('%s → %s', (read, tidy) => {
    expect(tidyLineText(read)).toBe(tidy);
  });
});
