import {
  billingCycleLabel,
  canCancelRenewal,
  defaultSubscriptionDetails,
  type PaymentStatusColour,
  paymentStatusColour,
  paymentStatusLabel,
  showsAddCredits,
} from '@altwise/contracts/billing';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useProfile } from '../../lib/profile.ts';
import { useSubscriptionDetails } from '../../lib/subscription.ts';
import { useCancelSubscription } from './api/cancel-subscription.ts';
import { formatDate } from './billing-display.ts';
import { NextSteps } from './next-steps.tsx';
import { PaymentHistory } from './payment-history.tsx';
import { ReturnedPaymentBanner } from './returned-payment-banner.tsx';

const unknownError = messages.common.unknownError;

/** The message of a failed call: the server's, else 'An unknown error occurred' (the product spec §8). */
function failureMessage(error: unknown): string {
  return serverMessage(error) ?? unknownError;
}

const statusColourClasses: Record<PaymentStatusColour, string> = {
  red: 'bg-red-100 text-red-800 ring-red-300',
  amber: 'bg-amber-100 text-amber-900 ring-amber-300',
  indigo: 'bg-indigo-100 text-indigo-800 ring-indigo-300',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="text-right font-semibold text-slate-900">{children}</dd>
    </div>
  );
}

function InlineLoading() {
  return (
    <span className="inline-flex items-center gap-2 font-normal text-slate-700">
      <Spinner className="size-4 text-indigo-700" />
      {messages.dashboard.loading}
    </span>
  );
}

function CreditUsageCard() {
  const credits = useRemainingCredits();
  return (
    <Card title="Credit Usage">
      <dl>
        <Field label="Credit Remaining">
          {credits.isPending ? (
            <InlineLoading />
          ) : credits.isError ? (
            <span className="text-red-700">{failureMessage(credits.error)}</span>
          ) : (
            <span data-testid="credit-remaining">{credits.data.imageCredits.toLocaleString('en-US')}</span>
          )}
        </Field>
      </dl>
    </Card>
  );
}

function PaymentPlansCard() {
  const subscriptionQuery = useSubscriptionDetails();
  const cancel = useCancelSubscription();
  const subscription = subscriptionQuery.data?.subscription ?? defaultSubscriptionDetails;
  const rawStatus = subscription.payment_status || defaultSubscriptionDetails.payment_status;
  const statusLabel = paymentStatusLabel(rawStatus);
  const currentPlan = subscription.current_plan || defaultSubscriptionDetails.current_plan;

  const onCancelRenewal = () => {
    // the product spec §8: a native confirm prompt with this exact text.
    if (!window.confirm(messages.subscription.cancelConfirm)) return;
    cancel.mutate(undefined, {
      onSuccess: () => notify.success(messages.subscription.cancelSuccess),
      onError: (error) => notify.error(serverMessage(error) ?? messages.subscription.cancelFailed),
    });
  };

  return (
    <Card title="Payment & Plans">
      {subscriptionQuery.isError ? (
        <MessageBanner type="error" className="mb-3">
          {failureMessage(subscriptionQuery.error)}
        </MessageBanner>
      ) : null}
      <dl className="divide-y divide-slate-100">
        <Field label="Current Plan">{subscriptionQuery.isPending ? <InlineLoading /> : currentPlan}</Field>
        <Field label="Payment Status">
          {subscriptionQuery.isPending ? (
            <InlineLoading />
          ) : (
            <span
              data-status-colour={paymentStatusColour(rawStatus)}
              className={`inline-flex rounded-full px-3 py-0.5 text-sm ring-1 ring-inset ${
                statusColourClasses[paymentStatusColour(rawStatus)]
              }`}
            >
              {statusLabel}
            </span>
          )}
        </Field>
        <Field label="Billing Cycle">
          {subscriptionQuery.isPending ? <InlineLoading /> : billingCycleLabel(currentPlan)}
        </Field>
        <Field label="Next Renewal Date">
          {subscriptionQuery.isPending ? <InlineLoading /> : formatDate(subscription.next_renewal_date)}
        </Field>
      </dl>
      {subscriptionQuery.isPending || !showsAddCredits(rawStatus) ? null : (
        <div className="mt-4 flex flex-wrap gap-3">
          <ButtonLink to={routes.plans}>Add Credits</ButtonLink>
          {canCancelRenewal(rawStatus) ? (
            <Button
              variant="secondary"
              onClick={onCancelRenewal}
              isLoading={cancel.isPending}
              loadingText="Cancelling..."
            >
              Cancel Renewal
            </Button>
          ) : null}
        </div>
      )}
    </Card>
  );
}

/** /dashboard (the product spec §2): profile, credits, plan and payment status, library count, payment history. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { user: storedUser } = useAuth();
  const profile = useProfile();
  const user = profile.data?.user;
  const name = user?.firstName || user?.username || storedUser?.firstName || storedUser?.username || 'User';
  // The hosted checkout sends the person back here with the payment's id.
  const [searchParams, setSearchParams] = useSearchParams();
  const returnedPaymentId = searchParams.get('payment_id');
  const forgetReturnedPayment = () =>
    setSearchParams(
      (params) => {
        params.delete('payment_id');
        params.delete('status');
        return params;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Welcome, {name}</h1>
      {returnedPaymentId ? (
        <div className="mt-6">
          <ReturnedPaymentBanner paymentId={returnedPaymentId} onDismiss={forgetReturnedPayment} />
        </div>
      ) : null}
      {profile.isPending ? (
        <p role="status" className="mt-8 flex items-center gap-3 text-slate-800">
          <Spinner className="size-5 text-indigo-700" />
          {messages.dashboard.loading}
        </p>
      ) : profile.isError ? (
        <MessageBanner type="error" className="mt-8">
          {failureMessage(profile.error)}
        </MessageBanner>
      ) : (
        <div className="mt-8 flex flex-col gap-6">
          <NextSteps libraryCount={profile.data.user.imagecount} />
          <div className="grid gap-6 md:grid-cols-2">
            <Card title="Profile Information">
              <dl className="divide-y divide-slate-100">
                <Field label="Name">
                  {`${profile.data.user.firstName} ${profile.data.user.lastName}`.trim()}
                </Field>
                <Field label="Email">
                  <span className="break-all">{profile.data.user.email}</span>
                </Field>
              </dl>
            </Card>
            <CreditUsageCard />
            <PaymentPlansCard />
            <Card title="Images with AltText in your Library">
              <dl>
                <Field label="Count">{profile.data.user.imagecount.toLocaleString('en-US')}</Field>
              </dl>
              <div className="mt-4">
                <Link
                  to={routes.images}
                  className="font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline"
                >
                  View All
                </Link>
              </div>
            </Card>
          </div>
          <PaymentHistory />
        </div>
      )}
    </div>
  );
}
