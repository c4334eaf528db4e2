import { describe, expect, it } from 'vitest';
import { isKnownWord } from './known-words.ts';

describe('known words: what a photograph’s text may say', () => {
  it.each([
    ['Haven', true],
    ['VEHICLES', true],
    ['chapeau', true],
    ['Straße', true],
    ['deutschen', true],
    // The two lines the package lists out of alphabetical order are still found.
    ['manlihood', true],
    ['sharrowed', true],
    ['Mageal', false],
    ['yenrs', false],
    ['OSPRLYS', false],
    ['Texis', false],
    ['', false],
  ])('%s → %s', (word, expected) => {
    expect(isKnownWord(word)).toBe(expected);
  });
});
