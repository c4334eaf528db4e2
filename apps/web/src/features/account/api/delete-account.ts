import type { DeleteAccountRequest } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** DELETE /users/me (ADR 022): 204 once the account and everything in it are gone. */
export function deleteAccount(body: DeleteAccountRequest): Promise<void> {
  return api.delete<void>('/users/me', body);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
