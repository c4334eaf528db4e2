import sharp from 'sharp';

/** Fields a test embeds in an image file, as a photo desk or a CMS would write them. */
export type EmbeddedFields = {
  altText?: string;
  extendedDescription?: string;
  description?: string;
  exifDescription?: string;
  make?: string;
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const langAlt = (tag: string, value: string | undefined) =>
  value === undefined
    ? ''
    : `<${tag}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt></${tag}>`;

/** An XMP packet carrying the IPTC accessibility fields and dc:description. */
export function xmpPacket(fields: EmbeddedFields): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/">',
    langAlt('Iptc4xmpCore:AltTextAccessibility', fields.altText),
    langAlt('Iptc4xmpCore:ExtDescrAccessibility', fields.extendedDescription),
    langAlt('dc:description', fields.description),
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  ].join('');
}

/** A small photo-like image in `format` carrying `fields` as XMP and EXIF (sharp's withXmp/withExif). */
export async function imageWithEmbeddedText(
  fields: EmbeddedFields,
  format: 'jpeg' | 'png' | 'webp' = 'jpeg',
  size = 64,
): Promise<Buffer> {
  // A photo-like picture (gradients and a soft disc), not one colour: a blank image is decorative.
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const at = (y * size + x) * 3;
      const disc = Math.hypot(x - size / 2, y - size / 3) < size / 4 ? 90 : 0;
      pixels[at] = (120 + disc + ((x * 3) % 60)) & 255;
      pixels[at + 1] = (70 + ((y * 5) % 90)) & 255;
      pixels[at + 2] = (40 + (((x + y) * 2) % 80)) & 255;
    }
  let image = sharp(pixels, { raw: { width: size, height: size, channels: 3 } });
  if (
    fields.altText !== undefined ||
    fields.extendedDescription !== undefined ||
    fields.description !== undefined
  )
    image = image.withXmp(xmpPacket(fields));
  if (fields.exifDescription !== undefined || fields.make !== undefined)
    image = image.withExif({
      IFD0: {
        ...(fields.exifDescription !== undefined ? { ImageDescription: fields.exifDescription } : {}),
        ...(fields.make !== undefined ? { Make: fields.make } : {}),
      },
    });
  return image.toFormat(format).toBuffer();
}
