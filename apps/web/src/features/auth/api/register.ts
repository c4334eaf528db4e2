import type { RegisterRequest } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { authApi } from './lazy-api.ts';

/** POST /users/register: creates the account and emails a confirmation link. */
export async function register(body: RegisterRequest) {
  const { api, contracts } = await authApi();
  return api.post('/users/register', body, {
    auth: false,
    schema: contracts.statusMessageResponseSchema,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
