import { emailOnlyRequestSchema } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import { useForgotPassword } from './api/forgot-password.ts';
import { AuthCard, textLinkClass } from './components/auth-card.tsx';

/** /forgot-password: asks for a reset link. The answer never says whether the address has an account. */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const form = useForm(emailOnlyRequestSchema, { email: '' });
  const request = useForgotPassword();

  const onSubmit = form.handleSubmit(({ email }) => request.mutate(email));

  return (
    <AuthCard title="Forgot your password?">
      <p className="mb-4 text-slate-700">
        Enter the email address of your account and we will email you a link to choose a new password.
      </p>
      {request.isSuccess ? (
        <MessageBanner type="success" className="mb-4">
          {request.data.message}
        </MessageBanner>
      ) : null}
      {request.isError ? (
        <MessageBanner type="error" className="mb-4">
          {serverMessage(request.error) ?? messages.common.unknownError}
        </MessageBanner>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          aria-required
          {...form.field('email')}
        />
        <Button type="submit" isLoading={request.isPending} loadingText="Sending..." className="w-full">
          Send reset link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to={routes.login} className={textLinkClass}>
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
