import { errorCodes } from '@altwise/contracts/errors';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { Link, useParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { VerificationCard } from '../../components/ui/verification-card.tsx';
import { isApiError, serverMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useConfirmEmail } from './api/confirm-email.ts';

type Outcome = { state: 'loading' } | { state: 'success' | 'error'; message: string; canLogIn: boolean };

function useOutcome(token: string | undefined): Outcome {
  const query = useConfirmEmail(token);
  if (!token) return { state: 'error', message: messages.confirmEmail.noToken, canLogIn: false };
  if (query.isPending) return { state: 'loading' };
  if (query.isError) {
    const error = query.error;
    return {
      state: 'error',
      message: serverMessage(error) ?? messages.confirmEmail.requestError,
      // Confirmed already: logging in is exactly what the person should do next.
      canLogIn: isApiError(error) && error.code === errorCodes.emailAlreadyConfirmed,
    };
  }
  const { status, message } = query.data;
  return status === 'success'
    ? { state: 'success', message: message || messages.confirmEmail.success, canLogIn: true }
    : { state: 'error', message: message || messages.confirmEmail.failed, canLogIn: false };
}

/** /confirm-email/{token}: checks the emailed link and says how it went (the product spec §2, §8). */
export function ConfirmEmailPage() {
  usePageTitle('Email confirmation');
  const { token } = useParams();
  const outcome = useOutcome(token);

  return (
    <VerificationCard loading={outcome.state === 'loading'} verifying={messages.confirmEmail.verifying}>
      {outcome.state === 'loading' ? null : (
        <>
          <h1
            className={`text-2xl font-bold ${outcome.state === 'success' ? 'text-green-800' : 'text-red-800'}`}
          >
            {outcome.message}
          </h1>
          {outcome.canLogIn ? (
            <Link to={routes.login} className={buttonClasses({ className: 'mt-6' })}>
              Proceed to Login
            </Link>
          ) : (
            <p className="mt-6 text-sm text-slate-700">
              Need a new link? Log in with your email address and password and choose "Resend confirmation
              email", or{' '}
              <Link
                to={routes.support}
                className="font-semibold text-indigo-700 underline underline-offset-2 hover:no-underline"
              >
                contact support
              </Link>
              .
            </p>
          )}
        </>
      )}
    </VerificationCard>
  );
}
