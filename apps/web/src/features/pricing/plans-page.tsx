import { messages } from '@altwise/contracts/messages';
import {
  type BillingPeriod,
  billingPeriods,
  creditPack,
  freePlan,
  type Plan,
  plans,
} from '@altwise/contracts/plans';
import { routes } from '@altwise/contracts/routes';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { CheckCircleIcon } from '../../components/ui/icons.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { usePageMeta } from '../../lib/page-meta.tsx';
import {
  checkoutHref,
  formatUsd,
  packQuantity,
  packTotal,
  periodSuffix,
  planAmount,
  planCreditText,
  planPrice,
} from './pricing.ts';
import { useStartCheckout } from './use-start-checkout.ts';

const periodLabel: Record<BillingPeriod, string> = { monthly: 'Monthly', yearly: 'Yearly' };

/**
 * A link to a checkout page. Signed out, it goes to /login and carries the checkout as the place to return
 * to after signing in (the same state the route guard uses).
 */
function CheckoutLink({
  to,
  children,
  highlighted = false,
}: {
  to: string;
  children: ReactNode;
  highlighted?: boolean;
}) {
  const { isAuthenticated } = useAuth();
  const checkout = useStartCheckout();
  const className = buttonClasses({ variant: highlighted ? 'primary' : 'secondary', className: 'w-full' });
  if (isAuthenticated) {
    return (
      <Link
        to={to}
        className={className}
        onClick={checkout.onClick(to)}
        aria-busy={checkout.isBusy || undefined}
      >
        {checkout.isBusy ? messages.checkout.processing : children}
      </Link>
    );
  }
  const [pathname = to, search = ''] = to.split('?');
  return (
    <Link
      to={routes.login}
      state={{ from: { pathname, search: search ? `?${search}` : '', hash: '' } }}
      className={className}
    >
      {children}
    </Link>
  );
}

function BillingPeriodToggle({
  value,
  onChange,
}: {
  value: BillingPeriod;
  onChange: (p: BillingPeriod) => void;
}) {
  const name = useId();
  return (
    <fieldset className="inline-flex rounded-lg border border-slate-300 bg-slate-100 p-1">
      <legend className="sr-only">Billing period</legend>
      {billingPeriods.map((period) => (
        <label
          key={period}
          className="relative cursor-pointer rounded-md px-5 py-2 text-sm font-semibold text-slate-800 has-checked:bg-white has-checked:text-indigo-800 has-checked:shadow-sm has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
        >
          <input
            type="radio"
            name={name}
            value={period}
            checked={value === period}
            onChange={() => onChange(period)}
            className="sr-only"
          />
          {periodLabel[period]}
        </label>
      ))}
    </fieldset>
  );
}

function FeatureList({ items }: { items: readonly string[] }) {
  return (
    <ul className="mt-6 space-y-2 text-sm text-slate-800">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2">
          <CheckCircleIcon className="mt-0.5 size-4 shrink-0 text-indigo-700" />
          {item}
        </li>
      ))}
    </ul>
  );
}

function PlanCard({ plan, period }: { plan: Plan; period: BillingPeriod }) {
  const price = planPrice(plan, period);
  return (
    <li
      className={`relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm ${
        plan.mostPopular ? 'border-indigo-700 ring-2 ring-indigo-700' : 'border-slate-200'
      }`}
    >
      <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>
      {plan.mostPopular ? (
        <p className="absolute -top-3 left-6 rounded-full bg-indigo-700 px-3 py-0.5 text-xs font-semibold text-white">
          Most popular
        </p>
      ) : null}
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight text-slate-900">{formatUsd(price)}</span>
        <span className="text-sm font-medium text-slate-700">{periodSuffix(period)}</span>
      </p>
      <div className="flex-1">
        <FeatureList items={[planCreditText(plan, period), '1 credit = 1 image-to-text generation']} />
      </div>
      <div className="mt-6">
        <CheckoutLink to={checkoutHref(plan.id, planAmount(plan, period))} highlighted={plan.mostPopular}>
          Choose {plan.name}
        </CheckoutLink>
      </div>
    </li>
  );
}

function CreditPackPanel() {
  const [rawQuantity, setRawQuantity] = useState('1');
  const quantity = packQuantity(rawQuantity);
  const total = packTotal(quantity);
  const inputId = useId();
  const totalId = useId();
  return (
    <section
      aria-labelledby="pack-heading"
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="pack-heading" className="text-xl font-semibold text-slate-900">
        Credit pack
      </h2>
      <p className="mt-2 text-slate-700">
        {creditPack.feature} for {formatUsd(creditPack.price)}, whenever you need more. Packs add to any plan.
      </p>
      <div className="mt-6 flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium text-slate-900">
            Number of packs
          </label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={creditPack.minQuantity}
            step={1}
            value={rawQuantity}
            onChange={(event) => setRawQuantity(event.target.value)}
            aria-describedby={totalId}
            className="min-h-11 w-28 rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900"
          />
        </div>
        <p id={totalId} className="pb-2 text-slate-900" aria-live="polite">
          Total: <strong>{formatUsd(total.amount)}</strong> for {total.credits.toLocaleString('en-US')}{' '}
          credits
        </p>
      </div>
      <div className="mt-6 sm:max-w-xs">
        <CheckoutLink to={checkoutHref(creditPack.id, total.amount, { quantity: String(quantity) })}>
          Buy {quantity === 1 ? 'credit pack' : `${quantity} credit packs`}
        </CheckoutLink>
      </div>
    </section>
  );
}

function FreePlanCard() {
  const { isAuthenticated } = useAuth();
  return (
    <section
      aria-labelledby="free-heading"
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="free-heading" className="text-xl font-semibold text-slate-900">
        {freePlan.name}
      </h2>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight text-slate-900">{formatUsd(freePlan.price)}</span>
        <span className="text-sm font-medium text-slate-700">/month</span>
      </p>
      <div className="flex-1">
        <FeatureList items={freePlan.features} />
      </div>
      <div className="mt-6 sm:max-w-xs">
        <Link
          to={isAuthenticated ? routes.freePlan : routes.register}
          className={buttonClasses({ variant: 'secondary', className: 'w-full' })}
        >
          {isAuthenticated ? 'Choose Free' : 'Start free trial'}
        </Link>
      </div>
    </section>
  );
}

export function PlansPage() {
  usePageMeta({
    title: 'Pricing',
    description:
      'Altwise plans from $5 a month, yearly plans, and 50-credit packs for $3. Start free with 25 credits: one credit writes alt text for one image.',
  });
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <div className="text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Pricing</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-700">
          One credit writes alt text for one image. Pick a plan that fits how many images you publish, or top
          up with credit packs.
        </p>
        <div className="mt-8">
          <BillingPeriodToggle value={period} onChange={setPeriod} />
        </div>
      </div>

      <section aria-labelledby="plans-heading" className="mt-12">
        <h2 id="plans-heading" className="sr-only">
          {periodLabel[period]} plans
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} period={period} />
          ))}
        </ul>
      </section>

      <div className="mt-12 grid gap-6 lg:grid-cols-2">
        <CreditPackPanel />
        <FreePlanCard />
      </div>
    </div>
  );
}
