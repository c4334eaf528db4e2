import { describe, expect, it } from 'vitest';
import { fileNameOfAddress, MAX_FILE_NAME_LENGTH, sanitizeFileName } from './file-names.ts';

describe('sanitizeFileName', () => {
  it('keeps only the last part of a path, of either kind of slash', () => {
    expect(sanitizeFileName('../../etc/passwd.png')).toBe('passwd.png');
    expect(sanitizeFileName('C:\\Users\\ana\\Pictures\\harbour.jpg')).toBe('harbour.jpg');
  });

  it('drops control characters and the marks that reorder text, keeps joiners', () => {
    expect(sanitizeFileName('\u202egnp.exe')).toBe('gnp.exe');
    expect(sanitizeFileName('a\u2066b\u2069c\u200f.png')).toBe('abc.png');
    expect(sanitizeFileName('new\nline\u0000.png')).toBe('new line.png');
    expect(sanitizeFileName('👩‍👩‍👧 family.png')).toBe('👩‍👩‍👧 family.png');
  });

  it('keeps letters of every script, composed, with spaces collapsed', () => {
    expect(sanitizeFileName('  Cafe\u0301   crème.jpg ')).toBe('Café crème.jpg');
    expect(sanitizeFileName('東京タワー.jpg')).toBe('東京タワー.jpg');
  });

  it('shortens a long name to the cap, keeping its extension and whole characters', () => {
    const long = sanitizeFileName(`${'a'.repeat(296)}.png`);
    expect(long).toBe(`${'a'.repeat(MAX_FILE_NAME_LENGTH - 4)}.png`);
    const emoji = sanitizeFileName(`${'🥐'.repeat(200)}.jpg`) ?? '';
    expect(emoji).toBe(`${'🥐'.repeat(MAX_FILE_NAME_LENGTH - 4)}.jpg`);
  });

  it('answers null when nothing is left', () => {
    expect(sanitizeFileName('')).toBeNull();
    expect(sanitizeFileName(undefined)).toBeNull();
    expect(sanitizeFileName('../')).toBeNull();
    expect(sanitizeFileName('..')).toBeNull();
    expect(sanitizeFileName('\u202e\u0007')).toBeNull();
  });
});

describe('fileNameOfAddress', () => {
  it('is the last path segment, decoded and sanitised', () => {
    expect(fileNameOfAddress('https://example.com/img/Caf%C3%A9%20au%20lait.jpg?w=800#x')).toBe(
      'Café au lait.jpg',
    );
    expect(fileNameOfAddress('https://example.com/img/%E2%80%AEgnp.exe')).toBe('gnp.exe');
    expect(fileNameOfAddress('https://example.com/img/100%.png')).toBe('100%.png');
    expect(fileNameOfAddress('https://example.com/photos/')).toBe('photos');
  });

  it('is null without a segment or for an address that is not http(s)', () => {
    expect(fileNameOfAddress('https://example.com/')).toBeNull();
    expect(fileNameOfAddress('data:image/png;base64,AAAA')).toBeNull();
    expect(fileNameOfAddress('not an address')).toBeNull();
  });
});
