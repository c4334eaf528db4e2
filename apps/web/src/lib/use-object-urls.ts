import { useEffect, useMemo, useState } from 'react';

/** Object URLs for chosen files' previews, revoked when the selection changes or the page goes. */
export function useObjectUrls(files: readonly File[]): string[] {
  const [urls, setUrls] = useState<string[]>([]);
  useEffect(() => {
    const next = files.map((file) => URL.createObjectURL(file));
    setUrls(next);
    return () => {
      for (const url of next) URL.revokeObjectURL(url);
    };
  }, [files]);
  return urls;
}

/** The object URL of one chosen file (null for none), revoked like useObjectUrls'. */
export function useObjectUrl(file: File | null): string | null {
  const files = useMemo(() => (file ? [file] : []), [file]);
  return useObjectUrls(files)[0] ?? null;
}
