import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type.ts';

describe('detectImageType', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  const text = (value: string) => new TextEncoder().encode(value);

  it('knows images by their first bytes, whatever they are called', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectImageType(text('GIF89a...'))).toBe('image/gif');
    expect(detectImageType(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(detectImageType(text('\u0000\u0000\u0000\u001cftypavif\u0000\u0000\u0000\u0000'))).toBe(
      'image/avif',
    );
    expect(detectImageType(text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(
      'image/svg+xml',
    );
  });

  it('refuses everything else', () => {
    expect(detectImageType(new Uint8Array())).toBeNull();
    expect(detectImageType(text('just some text, honest'))).toBeNull();
    expect(detectImageType(text('<html><body>not an image</body></html>'))).toBeNull();
    expect(detectImageType(text('\u0000\u0000\u0000\u001cftypmp42'))).toBeNull();
    expect(detectImageType(bytes(0x25, 0x50, 0x44, 0x46))).toBeNull(); // %PDF
  });
});
