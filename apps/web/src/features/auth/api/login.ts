import { type LoginRequest, loginResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /users/login: answers the session token and the user to store. */
export function login(body: LoginRequest) {
  return api.post('/users/login', body, { auth: false, schema: loginResponseSchema });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
