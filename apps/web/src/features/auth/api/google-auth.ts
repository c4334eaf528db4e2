import { googleAuthResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type GoogleAuthRequest = {
  credential: string;
  email?: string | undefined;
  googleId?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  provider: 'google';
  isLogin?: boolean | undefined;
};

/**
 * POST /users/auth/google. The server verifies `credential` (the Google ID token) and believes nothing
 * else; the decoded fields are sent because SPEC.md §7 lists them.
 */
export function googleAuth(body: GoogleAuthRequest) {
  return api.post('/users/auth/google', body, { auth: false, schema: googleAuthResponseSchema });
}

export function useGoogleAuth() {
  return useMutation({ mutationFn: googleAuth });
}
