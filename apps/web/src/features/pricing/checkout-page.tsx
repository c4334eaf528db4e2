import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { type FormEvent, useEffect, useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { useCreateCheckoutSession } from './api/create-checkout-session.ts';
import { type CheckoutSelection, resolveCheckout } from './checkout-product.ts';
import { formatUsd } from './pricing.ts';
import { requestCheckout } from './use-start-checkout.ts';

function summaryOf(selection: CheckoutSelection): { name: string; billing: string } {
  const { product, quantity } = selection;
  if (product.kind === 'pack') {
    return {
      name: quantity === 1 ? 'Credit pack' : `${quantity} credit packs`,
      billing: 'One-time payment',
    };
  }
  return {
    name: `${product.plan.name} plan`,
    billing:
      product.period === 'monthly' ? 'Billed monthly until you cancel' : 'Billed yearly until you cancel',
  };
}

const linkClasses = 'font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline';

function UnknownPlan({ planId }: { planId: string }) {
  useEffect(() => {
    // the product spec §5: an invalid plan id is logged only; no request is made.
    console.error(`Checkout: "${planId}" is not a plan or product; nothing was requested.`);
  }, [planId]);
  return (
    <MessageBanner type="error" className="mt-8">
      <p>There is no plan called “{planId}”.</p>
      <p className="mt-1">
        <Link to={routes.plans} className={linkClasses}>
          Choose a plan on the pricing page
        </Link>
      </p>
    </MessageBanner>
  );
}

function CheckoutForm({ selection }: { selection: CheckoutSelection }) {
  const { user } = useAuth();
  const checkout = useCreateCheckoutSession();
  const { name, billing } = summaryOf(selection);
  // After a success the browser is leaving for the hosted checkout: stay busy until it has gone.
  const busy = checkout.isPending || checkout.isSuccess;
  const failure = checkout.isError ? (serverMessage(checkout.error) ?? messages.checkout.failed) : null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    requestCheckout(checkout, selection);
  };

  return (
    <form onSubmit={onSubmit} className="mt-8 flex flex-col gap-6" aria-describedby="checkout-note">
      <Card title="Order summary">
        <dl className="divide-y divide-slate-100">
          <div className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">Product</dt>
            <dd className="font-semibold text-slate-900">{name}</dd>
          </div>
          <div className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">Credits</dt>
            <dd className="font-semibold text-slate-900">
              {selection.credits.toLocaleString('en-US')}
              {selection.period ? (selection.period === 'monthly' ? ' per month' : ' per year') : ''}
            </dd>
          </div>
          <div className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">Billing</dt>
            <dd className="font-semibold text-slate-900">{billing}</dd>
          </div>
          <div className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">Total due today</dt>
            <dd className="text-xl font-bold text-slate-900">{formatUsd(selection.total)}</dd>
          </div>
          {user?.email ? (
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-slate-700">Receipt to</dt>
              <dd className="font-semibold break-all text-slate-900">{user.email}</dd>
            </div>
          ) : null}
        </dl>
      </Card>
      <p id="checkout-note" className="text-sm text-slate-700">
        Pay takes you to our payment provider's secure page, where you enter your card. When the payment goes
        through you come back to your dashboard with the credits added.
      </p>
      {failure ? <MessageBanner type="error">{failure}</MessageBanner> : null}
      {busy ? <MessageBanner type="loading">{messages.checkout.processing}</MessageBanner> : null}
      <div className="flex flex-wrap items-center gap-4">
        {/* The banner above says 'Proccessing please wait...' (announced); the button only shows it is busy. */}
        <Button type="submit" size="lg" isLoading={busy}>
          Pay
        </Button>
        <Link to={routes.plans} className={linkClasses}>
          Back to pricing
        </Link>
      </div>
    </form>
  );
}

/**
 * /checkout/{plan}?amount=… (the product spec §2): what is being bought and a Pay button. The card itself is
 * entered on the payment provider's hosted checkout, where Pay sends the browser after the server has
 * recorded the checkout (the product spec §4 "Pricing checkout", §7).
 */
export function CheckoutPage() {
  const { plan: planParam = '' } = useParams();
  const [searchParams] = useSearchParams();
  const selection = useMemo(() => resolveCheckout(planParam, searchParams), [planParam, searchParams]);
  usePageTitle('Checkout');

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Checkout</h1>
      {selection ? <CheckoutForm selection={selection} /> : <UnknownPlan planId={planParam} />}
    </div>
  );
}
