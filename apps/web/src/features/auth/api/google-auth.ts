import { useMutation } from '@tanstack/react-query';
import { authApi } from './lazy-api.ts';

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
 * else; the decoded fields are sent because the product spec §7 lists them.
 */
export async function googleAuth(body: GoogleAuthRequest) {
  const { api, contracts } = await authApi();
  return api.post('/users/auth/google', body, { auth: false, schema: contracts.googleAuthResponseSchema });
}

export function useGoogleAuth() {
  return useMutation({ mutationFn: googleAuth });
}
