import { API_BASE } from '@altwise/contracts/routes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /audits/{id}/images/{imageId}/screenshot: the image as its rendered page showed it (ADR 061).
 * Screenshots are the owner's only, so they are fetched with the token and shown from a blob URL,
 * never linked directly. Null while loading, without a screenshot, or when it failed.
 */
export function useScreenshot(url: string | null): string | null {
  const path = url?.startsWith(API_BASE) ? url.slice(API_BASE.length) : url;
  const query = useQuery({
    queryKey: ['audit-screenshot', path],
    queryFn: ({ signal }) =>
      api.get<Blob>(path as string, { responseType: 'blob', signal, headers: { Accept: 'image/webp' } }),
    enabled: Boolean(path),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const objectUrl = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    },
    [objectUrl],
  );
  return objectUrl;
}
