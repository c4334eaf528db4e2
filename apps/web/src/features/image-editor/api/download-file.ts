/**
 * GETs a stored result (e.g. `/files/<key>`) as a blob (the product spec §7: the edited image is fetched from its
 * url and saved). Stored files are public by their unguessable key, so no token is sent.
 */
export async function fetchFileBlob(url: string): Promise<Blob> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Download failed with status ${response.status}`);
  return response.blob();
}
