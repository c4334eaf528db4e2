import { describe, expect, it } from 'vitest';
import { imageFileName } from './format.ts';

describe('imageFileName', () => {
  it('names an image by the last segment of its address, decoded', () => {
    expect(
      imageFileName('https://shop.example/wp-content/uploads/2026/11/harbour%20at%20dawn.jpg?w=300'),
    ).toBe('harbour at dawn.jpg');
    expect(imageFileName('/img/boat.png#x')).toBe('boat.png');
  });

  it('has no name for an inline image, a bare host or a broken escape', () => {
    expect(imageFileName('data:image/png;base64,AAAA')).toBe('');
    expect(imageFileName('https://shop.example/')).toBe('');
    expect(imageFileName('https://shop.example/a%E0%A4%A.png')).toBe('a%E0%A4%A.png');
  });
});
