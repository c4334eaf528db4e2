import type { LoginRequest } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { authApi } from './lazy-api.ts';

/** POST /users/login: answers the session token and the user to store. */
export async function login(body: LoginRequest) {
  const { api, contracts } = await authApi();
  return api.post('/users/login', body, { auth: false, schema: contracts.loginResponseSchema });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
