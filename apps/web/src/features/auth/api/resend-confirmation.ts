import { useMutation } from '@tanstack/react-query';
import { authApi } from './lazy-api.ts';

/** POST /users/resend-confirmation: a new confirmation link for an address not yet confirmed. */
export async function resendConfirmation(email: string) {
  const { api, contracts } = await authApi();
  return api.post(
    '/users/resend-confirmation',
    { email },
    { auth: false, schema: contracts.statusMessageResponseSchema },
  );
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
