import { statusMessageResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /users/reset-password: sets a new password with the emailed single-use token. */
export function resetPassword(body: { token: string; password: string }) {
  return api.post('/users/reset-password', body, { auth: false, schema: statusMessageResponseSchema });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
