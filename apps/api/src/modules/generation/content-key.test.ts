import { describe, expect, it } from 'vitest';
import { contentContextKey, contentSha256 } from './content-key.ts';

describe('contentSha256', () => {
  it('tells one changed byte apart', () => {
    const a = new Uint8Array([1, 2, 3, 4]);
    const b = new Uint8Array([1, 2, 3, 5]);
    expect(contentSha256(a)).toBe(contentSha256(new Uint8Array([1, 2, 3, 4])));
    expect(contentSha256(a)).not.toBe(contentSha256(b));
    expect(contentSha256(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('contentContextKey', () => {
  const key = contentContextKey;
  it('ignores what differs between two copies of one picture in one role', () => {
    expect(key({ context: { fileName: 'a.png', pageUrl: 'https://x/1', heading: 'One' } })).toBe(
      key({
        context: { fileName: 'b.png', pageUrl: 'https://x/2', surroundingText: 'Two', existingAlt: 'x' },
      }),
    );
    expect(key({ context: { caption: ' A  Red Bag ' } })).toBe(key({ context: { caption: 'a red bag' } }));
    expect(key({ context: {}, keywords: ['b', 'a'] })).toBe(key({ context: {}, keywords: ['a', 'b', 'a'] }));
    expect(key({ context: { caption: '' } })).toBe(key({ context: null }));
  });

  it('tells apart the fields that change the alt', () => {
    const base = key({ context: {} });
    const others = [
      key({ context: { role: 'link', linkTarget: '/shop' } }),
      key({ context: { role: 'link', linkTarget: '/about' } }),
      key({ context: { role: 'link', linkTarget: '/shop', linkText: 'Shop' } }),
      key({ context: { caption: 'A red bag' } }),
      key({ context: { siteLogo: true } }),
      key({ context: { partOfPicture: 'Rating' } }),
      key({ context: { imageRow: { position: 2, files: ['s.png', 's.png', 's.png'] } } }),
      key({ context: {}, language: 'de' }),
      key({ context: {}, prompt: 'Mention the brand' }),
      key({ context: {}, keywords: ['leather'] }),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});
