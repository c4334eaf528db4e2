import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-file.ts';

/** The zip's name in the browser. */
export const IMAGES_WITH_ALT_FILE_NAME = 'images-with-alt-text.zip';

/**
 * POST /images/altText/with-alt.zip {ids}: the selected images, each a copy with its alt text written
 * into the file's metadata, and a manifest.csv (ADR 064); the browser saves the zip.
 */
export async function downloadImagesWithAlt(ids: readonly string[]): Promise<void> {
  const blob = await api.post<Blob>(
    '/images/altText/with-alt.zip',
    { ids },
    { responseType: 'blob', headers: { Accept: '*/*' } },
  );
  saveBlob(blob, IMAGES_WITH_ALT_FILE_NAME);
}
