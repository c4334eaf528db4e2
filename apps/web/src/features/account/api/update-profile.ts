import { updateProfileResponseSchema } from '@altwise/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { toStoredUser, writeUser } from '../../../lib/auth-storage.ts';
import { profileQueryKey } from '../../../lib/profile.ts';

/** PUT /users/update-profile: first and last name, and the default alt-text language. */
export function updateProfile(body: {
  firstName: string;
  lastName: string;
  defaultLanguage?: string | null;
}) {
  return api.put('/users/update-profile', body, { schema: updateProfileResponseSchema });
}

/** Keeps the stored `user` (the header, the dashboard greeting) and the profile query in step. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (response) => {
      const user = toStoredUser(response.user);
      if (user) writeUser(user);
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });
}
