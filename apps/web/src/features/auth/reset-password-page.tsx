import { resetPasswordFormSchema, resetPasswordRequestSchema } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import { useResetPassword } from './api/reset-password.ts';
import { AuthCard, textLinkClass } from './components/auth-card.tsx';
import { usePasswordStrengthHint } from './components/password-strength.ts';

/** /reset-password?token=…: the emailed link; sets a new password, then the person logs in. */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const form = useForm(resetPasswordFormSchema, { password: '', confirmPassword: '' });
  const reset = useResetPassword();
  const passwordField = form.field('password');
  const strengthHint = usePasswordStrengthHint(passwordField.value);
  const tokenProblem = resetPasswordRequestSchema.shape.token.safeParse(token).error?.issues[0]?.message;

  const onSubmit = form.handleSubmit(({ password }) => {
    reset.mutate({ token, password }, { onSuccess: () => form.reset() });
  });

  if (reset.isSuccess) {
    return (
      <AuthCard title="Choose a new password">
        <MessageBanner type="success">{reset.data.message}</MessageBanner>
        <div className="mt-6 text-center">
          <Link to={routes.login} className={buttonClasses()}>
            Proceed to Login
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      {tokenProblem ? (
        <MessageBanner type="error" className="mb-4">
          {tokenProblem}
        </MessageBanner>
      ) : null}
      {reset.isError ? (
        <MessageBanner type="error" className="mb-4">
          <p>{serverMessage(reset.error) ?? messages.common.unknownError}</p>
          <p className="mt-2">
            <Link to={routes.forgotPassword} className="font-semibold underline underline-offset-2">
              Ask for a new link
            </Link>
          </p>
        </MessageBanner>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...(strengthHint ? { hint: strengthHint } : {})}
          {...passwordField}
        />
        <TextField
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...form.field('confirmPassword')}
        />
        <Button
          type="submit"
          disabled={Boolean(tokenProblem)}
          isLoading={reset.isPending}
          loadingText="Saving..."
          className="w-full"
        >
          Set new password
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
