import { afterEach, describe, expect, it } from 'vitest';
import { imageFileName, readScrapedResult, saveScrapedResult, toScrapedResult } from './scraped-result.ts';

afterEach(() => sessionStorage.clear());

describe('imageFileName', () => {
  it('is the last path segment, decoded, without query or fragment', () => {
    expect(imageFileName('https://a.example/img/cat%20photo.jpg?w=800#x')).toBe('cat photo.jpg');
    expect(imageFileName('https://a.example/img/folder/')).toBe('folder');
  });
  it('is null when the path has no segment (shown as Unnamed Image)', () => {
    expect(imageFileName('https://a.example/')).toBeNull();
    expect(imageFileName('https://a.example')).toBeNull();
  });
  it('keeps a segment that is not valid percent-encoding as it is', () => {
    expect(imageFileName('https://a.example/100%.png')).toBe('100%.png');
  });
});

describe('scraped result storage', () => {
  const result = {
    url: 'https://a.example',
    images: [{ src: 'https://a.example/x.png', alt: '', invalid: false, context: {} }],
  };

  it('round-trips through sessionStorage', () => {
    saveScrapedResult(result);
    expect(readScrapedResult()).toEqual(result);
  });
  it('treats an empty list, a wrong shape or broken JSON as no list', () => {
    expect(toScrapedResult({ url: 'https://a.example', images: [] })).toBeNull();
    expect(toScrapedResult({ images: result.images })).toBeNull();
    expect(toScrapedResult(null)).toBeNull();
    sessionStorage.setItem('altwise.scrapedImages', '{not json');
    expect(readScrapedResult()).toBeNull();
  });
});
