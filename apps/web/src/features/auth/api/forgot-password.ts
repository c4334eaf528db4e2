import { statusMessageResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /users/forgot-password: emails a reset link; answers the same whether or not the address exists. */
export function forgotPassword(email: string) {
  return api.post('/users/forgot-password', { email }, { auth: false, schema: statusMessageResponseSchema });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
