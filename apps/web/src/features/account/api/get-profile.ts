import { profileResponseSchema } from '@altwise/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/profile. A 401 removes the stored token (api-client) and the route guard sends to /login. */
export function getProfile() {
  return api.get('/users/profile', { schema: profileResponseSchema });
}

export const profileQuery = queryOptions({ queryKey: ['profile'], queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQuery);
}
