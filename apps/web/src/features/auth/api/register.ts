import { type RegisterRequest, statusMessageResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /users/register: creates the account and emails a confirmation link. */
export function register(body: RegisterRequest) {
  return api.post('/users/register', body, { auth: false, schema: statusMessageResponseSchema });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
