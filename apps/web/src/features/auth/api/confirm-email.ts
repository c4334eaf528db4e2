import { confirmEmailResponseSchema } from '@altwise/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/confirm-email/{token}: public; the token is single use. */
export function confirmEmail(token: string) {
  return api.get(`/users/confirm-email/${encodeURIComponent(token)}`, {
    auth: false,
    schema: confirmEmailResponseSchema,
  });
}

export const confirmEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['confirm-email', token],
    queryFn: () => confirmEmail(token),
    // The link works once: never ask again for the same token, whatever happens to the page.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export function useConfirmEmail(token: string | undefined) {
  return useQuery({ ...confirmEmailQuery(token ?? ''), enabled: Boolean(token) });
}
