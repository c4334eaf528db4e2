import { profileResponseSchema } from '@altwise/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/**
 * The signed-in user's profile query. The dashboard (greeting, Profile Information card, library
 * count) and the account page both show it and features never import each other, so the one query
 * and its key live here: an update on the account page refetches what the dashboard shows.
 */
export const profileQueryKey = ['profile'] as const;

/** GET /users/profile. A 401 removes the stored token (api-client) and the route guard sends to /login. */
export function getProfile() {
  return api.get('/users/profile', { schema: profileResponseSchema });
}

export const profileQuery = queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQuery);
}
