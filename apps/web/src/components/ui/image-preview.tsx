import { useState } from 'react';
import { imageFileName } from '../../lib/format.ts';

/**
 * The stored preview of an image whose alt text a person reviews (point 9, ADR 051). It is
 * decorative where it is shown: the alt text being judged is beside it, so `alt=""` keeps a screen
 * reader from reading it twice. No preview, or one that no longer loads (the image was deleted), is
 * a neutral box of the same size, so rows and dialogs keep their layout.
 */

/** The box of a dialog that shows the picture beside its form: wide enough for both from `md` up. */
export const wideDialog = 'm-auto w-[min(60rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl';

/**
 * A fixed-size preview for table cells (48 px square unless `className` says otherwise), loaded only
 * when scrolled near. `fallbackUrl` is tried when there is no stored preview (the audit's original).
 */
export function Thumbnail({
  url,
  fallbackUrl,
  className = 'size-12',
  loading = 'lazy',
}: {
  url: string | null;
  fallbackUrl?: string;
  className?: string;
  /** `eager` where the page is printed: a printout has no scrolling to load the rest. */
  loading?: 'lazy' | 'eager';
}) {
  const [failed, setFailed] = useState<readonly string[]>([]);
  const box = `${className} block shrink-0 rounded border border-slate-300 bg-slate-100`;
  const source = [url, fallbackUrl].find(
    (candidate): candidate is string => Boolean(candidate) && !failed.includes(candidate as string),
  );
  if (!source) return <span data-testid="thumbnail-placeholder" aria-hidden="true" className={box} />;
  return (
    <img
      key={source}
      src={source}
      alt=""
      loading={loading}
      decoding="async"
      onError={() => setFailed((before) => [...before, source])}
      className={`${box} object-contain`}
    />
  );
}

/** The picture itself, large (at most 480 px wide, never wider than its column), for edit dialogs. */
export function LargePreview({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed)
    return (
      <div
        data-testid="preview-placeholder"
        className="flex aspect-[4/3] w-full max-w-[480px] items-center justify-center rounded-lg border border-slate-300 bg-slate-100 text-sm text-slate-700"
      >
        No preview of this image
      </div>
    );
  return (
    <img
      src={url}
      alt=""
      onError={() => setFailed(true)}
      className="max-h-[480px] w-full max-w-[480px] rounded-lg border border-slate-300 bg-slate-100 object-contain"
    />
  );
}

/**
 * The image's file name, as people know their images: `name` when the server knows it (an upload's
 * original name), else the last segment of `src`; nothing for an inline image.
 */
export function ImageFileName({ src, name: known }: { src: string; name?: string | null }) {
  const name = known || imageFileName(src);
  return name ? <span className="block font-medium break-all text-slate-900">{name}</span> : null;
}
