import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useCallback } from 'react';
import { notify } from '../../components/ui/notify.ts';
import { isApiError } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { usePageNavigation } from '../../lib/navigation.tsx';
import { useGoogleAuth } from './api/google-auth.ts';
import { sendRegistrationEmail } from './api/send-registration-email.ts';
import { decodeGoogleCredential } from './google-identity.ts';

/**
 * What happens with the credential Google hands back (the product spec §4, §8): the server verifies it and answers a
 * session; an existing user is told and logged in, a new one is welcomed (and mailed) and logged in, and
 * both go to /dashboard. On the login screen an unknown account is sent to /register.
 */
export function useGoogleSignIn(mode: 'signup' | 'signin', beforeLogin?: () => void) {
  const googleAuth = useGoogleAuth();
  const { login } = useAuth();
  const { navigate } = usePageNavigation();
  const isLogin = mode === 'signin';
  const { mutate } = googleAuth;

  const onCredential = useCallback(
    (credential: string) => {
      const claims = decodeGoogleCredential(credential);
      mutate(
        {
          credential,
          email: claims.email,
          googleId: claims.sub,
          firstName: claims.given_name,
          lastName: claims.family_name,
          provider: 'google',
          ...(isLogin ? { isLogin: true } : {}),
        },
        {
          onSuccess: async (response) => {
            if (!response.isExistingUser) {
              notify.success(messages.google.created);
              void sendRegistrationEmail({
                firstName: response.user.firstName,
                lastName: response.user.lastName,
                email: response.user.email,
              });
            } else if (isLogin) {
              notify.success(messages.google.loginSuccess);
            } else {
              notify.info(messages.google.alreadyRegistered);
            }
            beforeLogin?.();
            await login({ token: response.token, user: response.user });
            navigate(routes.dashboard, { replace: true });
          },
          onError: (error) => {
            console.error('Google sign-in failed.', error);
            if (isLogin && isApiError(error) && error.status === 404) {
              notify.error(messages.login.accountNotFound);
              navigate(routes.register);
              return;
            }
            notify.error(isLogin ? messages.login.googleFailed : messages.register.googleFailed);
          },
        },
      );
    },
    [mutate, isLogin, login, navigate, beforeLogin],
  );

  return { onCredential, isPending: googleAuth.isPending };
}
