import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { SpinnerOverlay } from '../../components/ui/spinner-overlay.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { PageLink, Redirect } from '../../lib/navigation.tsx';
import { usePageMeta } from '../../lib/page-meta.tsx';
import { useForm } from '../../lib/use-form.ts';
import { useRegister } from './api/register.ts';
import { sendRegistrationEmail } from './api/send-registration-email.ts';
import { AuthCard, textLinkClass } from './components/auth-card.tsx';
import { GoogleSignIn } from './components/google-sign-in.tsx';
import { usePasswordStrengthHint } from './components/password-strength.ts';
import { useGoogleSignIn } from './use-google-sign-in.ts';

const emptyForm = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

/** The contract's schema, loaded with zod after the page is on screen (ADR 038). */
const loadRegisterSchema = () => import('@altwise/contracts/auth').then((m) => m.registerFormSchema);

/** The message of a failed registration: the server's, or the product spec §8's fallback. */
function registrationError(error: unknown): string {
  return serverMessage(error) ?? messages.register.failed;
}

/** Sign-up (the product spec §2 Register). */
export function RegisterPage() {
  usePageMeta({
    title: 'Create an Account',
    description:
      'Create your Altwise account with your email address or Google and get 25 free credits for AI alt text. No credit card needed.',
  });
  const { isAuthenticated } = useAuth();
  const signingIn = useRef(false);
  const form = useForm(loadRegisterSchema, emptyForm);
  const registration = useRegister();
  const passwordField = form.field('password');
  const strengthHint = usePasswordStrengthHint(passwordField.value);
  const [successOpen, setSuccessOpen] = useState(false);
  const google = useGoogleSignIn('signup', () => {
    signingIn.current = true;
  });

  if (isAuthenticated && !signingIn.current) return <Redirect to={routes.dashboard} />;

  const onSubmit = form.handleSubmit((values) => {
    registration.mutate(values, {
      onSuccess: (response) => {
        if (response.status !== 'success') return;
        void sendRegistrationEmail({
          firstName: values.firstName,
          lastName: values.lastName,
          email: values.email,
        });
        form.reset();
        setSuccessOpen(true);
      },
      onError: (error) => console.error('Registration failed.', error),
    });
  });

  return (
    <AuthCard title="Create an Account">
      <GoogleSignIn mode="signup" onCredential={google.onCredential} />
      <p className="mb-4 text-center text-slate-700">Create an account using your own email ID.</p>
      {registration.isError ? (
        <MessageBanner type="error" className="mb-4">
          {registrationError(registration.error)}
        </MessageBanner>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First Name"
            autoComplete="given-name"
            aria-required
            {...form.field('firstName')}
          />
          <TextField label="Last Name" autoComplete="family-name" aria-required {...form.field('lastName')} />
        </div>
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          aria-required
          {...form.field('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...(strengthHint ? { hint: strengthHint } : {})}
          {...passwordField}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...form.field('confirmPassword')}
        />
        <Button
          type="submit"
          isLoading={registration.isPending}
          loadingText="Registering..."
          className="w-full"
        >
          Register
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        <PageLink to={routes.login} className={textLinkClass}>
          Already have an account? Login
        </PageLink>
      </p>
      <Dialog
        open={successOpen}
        onClose={() => setSuccessOpen(false)}
        title={messages.register.successTitle}
        showCloseButton={false}
      >
        <p className="text-slate-800">{messages.register.successBody}</p>
        <div className="mt-6 flex justify-end">
          <Button onClick={() => setSuccessOpen(false)}>OK</Button>
        </div>
      </Dialog>
      {google.isPending ? <SpinnerOverlay label="Signing you up with Google..." /> : null}
    </AuthCard>
  );
}
