import { changePasswordResponseSchema } from '@altwise/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { writeToken } from '../../../lib/auth-storage.ts';

/** PUT /users/change-password. Ends every earlier session; the answer carries this one's new token. */
export function changePassword(body: { currentPassword: string; newPassword: string }) {
  return api.put('/users/change-password', body, { schema: changePasswordResponseSchema });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (response) => writeToken(response.token),
  });
}
