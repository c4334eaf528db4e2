import { statusMessageResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /users/resend-confirmation: a new confirmation link for an address not yet confirmed. */
export function resendConfirmation(email: string) {
  return api.post(
    '/users/resend-confirmation',
    { email },
    { auth: false, schema: statusMessageResponseSchema },
  );
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
