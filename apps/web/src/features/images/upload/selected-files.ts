import { MAX_UPLOAD_BYTES } from '@altwise/contracts/limits';

/** A file the person picked, with a stable key for the list and its remove button. */
export type SelectedFile = { key: string; file: File };

const keyOf = (file: File) => `${file.name}:${file.size}:${file.lastModified}`;

export const isOversize = (file: File) => file.size > MAX_UPLOAD_BYTES;

const isImage = (file: File) => file.type === '' || file.type.startsWith('image/');

/**
 * Adds newly picked or dropped files to the selection (the product spec §5): files over 5MB are dropped and
 * named in `oversize`; files that are not images (a drop can carry anything) are dropped and named in
 * `notImages`; the same file picked twice is kept once.
 */
export function addFiles(current: readonly SelectedFile[], incoming: Iterable<File>) {
  const keys = new Set(current.map((entry) => entry.key));
  const added: SelectedFile[] = [];
  const oversize: string[] = [];
  const notImages: string[] = [];
  for (const file of incoming) {
    if (!isImage(file)) {
      notImages.push(file.name);
      continue;
    }
    if (isOversize(file)) {
      oversize.push(file.name);
      continue;
    }
    const key = keyOf(file);
    if (keys.has(key)) continue;
    keys.add(key);
    added.push({ key, file });
  }
  return { files: [...current, ...added], oversize, notImages };
}
