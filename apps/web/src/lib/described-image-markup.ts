/**
 * Ready HTML for an image with a long description (ADR 050): the image names its
 * description with `aria-describedby`, and the description is a visible paragraph right after it,
 * so sighted readers get it too. Every value is escaped for its place (attribute or text).
 */

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);

/** The paragraph's id: `desc-` and the first block of the image's id (a UUID), else a safe slug. */
export function descriptionId(imageId: string): string {
  const slug = imageId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '')
    .split('-')[0];
  return `desc-${slug || 'image'}`;
}

export function describedImageMarkup(image: {
  id: string;
  src: string;
  alt: string;
  longDescription?: string | null | undefined;
}): string {
  const description = image.longDescription?.trim();
  const img = `<img src="${escapeHtml(image.src)}" alt="${escapeHtml(image.alt.trim())}"`;
  if (!description) return `${img}>`;
  const id = descriptionId(image.id);
  return `${img} aria-describedby="${id}">\n<p id="${id}">${escapeHtml(description)}</p>`;
}
