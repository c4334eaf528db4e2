import { errorCodes } from '@altwise/contracts/error-codes';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { SpinnerOverlay } from '../../components/ui/spinner-overlay.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { isApiError, serverMessage } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { PageLink, Redirect, usePageNavigation } from '../../lib/navigation.tsx';
import { usePageMeta } from '../../lib/page-meta.tsx';
import { useForm } from '../../lib/use-form.ts';
import { useLogin } from './api/login.ts';
import { useResendConfirmation } from './api/resend-confirmation.ts';
import { AuthCard, textLinkClass } from './components/auth-card.tsx';
import { GoogleSignIn } from './components/google-sign-in.tsx';
import { useGoogleSignIn } from './use-google-sign-in.ts';

/** Where the route guard says the person was going (`location.state.from`), else the dashboard. */
function destinationFrom(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('from' in state)) return routes.dashboard;
  const from = (state as { from: unknown }).from;
  if (typeof from !== 'object' || from === null) return routes.dashboard;
  const { pathname, search, hash } = from as Record<string, unknown>;
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname.startsWith('//')) {
    return routes.dashboard;
  }
  return `${pathname}${typeof search === 'string' ? search : ''}${typeof hash === 'string' ? hash : ''}`;
}

/** The contract's schema, loaded with zod after the page is on screen (ADR 038). */
const loadLoginSchema = () => import('@altwise/contracts/auth').then((m) => m.loginRequestSchema);

function loginError(error: unknown): string {
  return serverMessage(error) ?? messages.login.failed;
}

/** Sign-in (the product spec §2 Login) with 'Forgot password?' and, before confirmation, a resend button. */
export function LoginPage() {
  usePageMeta({
    title: 'Log in',
    description: 'Log in to Altwise with your email address or Google to write alt text for your images.',
  });
  const { isAuthenticated, login } = useAuth();
  const { navigate, state } = usePageNavigation();
  const signingIn = useRef(false);
  const form = useForm(loadLoginSchema, { email: '', password: '' });
  const loginCall = useLogin();
  const resend = useResendConfirmation();
  const google = useGoogleSignIn('signin', () => {
    signingIn.current = true;
  });

  if (isAuthenticated && !signingIn.current) return <Redirect to={routes.dashboard} />;

  const onSubmit = form.handleSubmit((values) => {
    resend.reset();
    loginCall.mutate(values, {
      onSuccess: async (response) => {
        if (response.status !== 'success' || !response.token) return;
        signingIn.current = true;
        await login({ token: response.token, user: response.user });
        notify.success(messages.login.success);
        navigate(destinationFrom(state), { replace: true });
      },
      onError: (error) => console.error('Login failed.', error),
    });
  });

  const error = loginCall.error;
  const unconfirmed = isApiError(error) && error.code === errorCodes.emailNotConfirmed;

  return (
    <AuthCard title="Login to Your Account">
      <GoogleSignIn mode="signin" onCredential={google.onCredential} />
      {loginCall.isError ? (
        <MessageBanner type="error" className="mb-4">
          <p>{loginError(error)}</p>
          {unconfirmed ? (
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              isLoading={resend.isPending}
              loadingText="Sending..."
              onClick={() => resend.mutate(form.values.email.trim())}
            >
              Resend confirmation email
            </Button>
          ) : null}
        </MessageBanner>
      ) : null}
      {resend.isSuccess ? (
        <MessageBanner type="success" className="mb-4">
          {resend.data.message}
        </MessageBanner>
      ) : null}
      {resend.isError ? (
        <MessageBanner type="error" className="mb-4">
          {loginError(resend.error)}
        </MessageBanner>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          aria-required
          {...form.field('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          aria-required
          {...form.field('password')}
        />
        <p className="-mt-2 text-right text-sm">
          <PageLink to={routes.forgotPassword} className={textLinkClass}>
            Forgot password?
          </PageLink>
        </p>
        <Button type="submit" isLoading={loginCall.isPending} loadingText="Logging in..." className="w-full">
          Sign In
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        <PageLink to={routes.register} className={textLinkClass}>
          Don't have an account? Register
        </PageLink>
      </p>
      {google.isPending ? <SpinnerOverlay label="Signing you in with Google..." /> : null}
    </AuthCard>
  );
}
