/**
 * Recognises the audio and image formats a reel accepts by their first bytes, never by the name or
 * the type the browser claims. ffmpeg and sharp still have to decode the file afterwards: these
 * checks only keep anything else (HTML, archives, executables…) away from the decoders.
 */

export type AudioKind = 'mp3' | 'aac' | 'wav' | 'm4a' | 'ogg' | 'flac';
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/** How many leading bytes the checks below need. */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** The ISO-BMFF brands (major and compatible) of an `ftyp` box at the start of the file. */
function isoBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== 'ftyp') return null;
  const boxSize =
    ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  const end = Math.min(bytes.length, boxSize > 0 ? boxSize : bytes.length);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  return brands;
}

/** An MPEG audio frame header: 11 sync bits, a valid version, layer, bitrate and sample rate. */
function isMpegAudioFrame(bytes: Uint8Array, offset: number): boolean {
  const b0 = bytes[offset];
  const b1 = bytes[offset + 1];
  const b2 = bytes[offset + 2];
  if (b0 === undefined || b1 === undefined || b2 === undefined) return false;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0b11;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && sampleRate !== 0b11;
}

/** An ADTS (raw AAC) header: 12 sync bits and layer 0. */
function isAdtsFrame(bytes: Uint8Array): boolean {
  const b0 = bytes[0];
  const b1 = bytes[1];
  return b0 === 0xff && b1 !== undefined && (b1 & 0xf6) === 0xf0;
}

export function sniffAudio(bytes: Uint8Array): AudioKind | null {
  if (bytes.length < 4) return null;
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (isAdtsFrame(bytes)) return 'aac';
  if (isMpegAudioFrame(bytes, 0)) return 'mp3';
  const brands = isoBrands(bytes);
  // M4A, and MP4 or 3GP containers, which ffmpeg then has to confirm hold an audio stream.
  if (brands?.some((brand) => /^(M4A |M4B |mp4[12]|isom|iso[2-6]|3gp\d|3g2\w|dash|f4a )$/.test(brand)))
    return 'm4a';
  return null;
}

export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (isoBrands(bytes)?.some((brand) => brand === 'avif' || brand === 'avis')) return 'avif';
  return null;
}
