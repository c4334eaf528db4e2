import { TOTAL_COUNT_HEADER } from '@altwise/contracts/generation';
import { type LibraryImageRecord, listLibraryImagesResponseSchema } from '@altwise/contracts/library';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequestWithHeaders } from '../../../lib/api-client.ts';

/** Every library query starts with this key: invalidating it refetches every page and the export. */
export const libraryQueryKey = ['library-images'] as const;

export type LibraryPage = {
  images: LibraryImageRecord[];
  /** Images in the whole listing (the `x-total-count` header): the library, or those needing review. */
  total: number;
};

/**
 * GET /images/altText?userId=&page=&pageSize= (the product spec §7, paged by the server: at 100,000 images the
 * browser cannot slice the whole list). The total comes from the `x-total-count` header. With
 * `needsReview`, only the images a person should look at.
 */
export async function listLibraryPage(
  userId: string,
  page: number,
  pageSize: number,
  needsReview = false,
): Promise<LibraryPage> {
  const { data, headers } = await apiRequestWithHeaders('/images/altText', {
    query: { userId, page, pageSize, needsReview: needsReview ? 'true' : undefined },
    schema: listLibraryImagesResponseSchema,
  });
  const header = Number(headers.get(TOTAL_COUNT_HEADER));
  const total = Number.isFinite(header) && headers.has(TOTAL_COUNT_HEADER) ? header : data.length;
  return { images: data, total };
}

/** GET /images/altText?userId= without a page: the whole library (for the export of everything). */
export async function listAllLibraryImages(userId: string) {
  const { data } = await apiRequestWithHeaders('/images/altText', {
    query: { userId },
    schema: listLibraryImagesResponseSchema,
  });
  return data;
}

export const libraryPageQuery = (userId: string, page: number, pageSize: number, needsReview = false) =>
  queryOptions({
    queryKey: [...libraryQueryKey, userId, { page, pageSize, needsReview }],
    queryFn: () => listLibraryPage(userId, page, pageSize, needsReview),
    // Keep showing the rows of the page we come from while the next one loads (no flash of 'Loading...').
    placeholderData: keepPreviousData,
  });

export function useLibraryPage(userId: string | null, page: number, pageSize: number, needsReview = false) {
  return useQuery({
    ...libraryPageQuery(userId ?? '', page, pageSize, needsReview),
    enabled: userId !== null,
  });
}
