import { messages } from '@altwise/contracts/messages';
import { freePlan } from '@altwise/contracts/plans';
import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { CheckCircleIcon } from '../../components/ui/icons.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useClaimFreePlan } from './api/claim-free-plan.ts';
import { formatUsd } from './pricing.ts';

const linkClasses = 'font-semibold text-indigo-700 underline underline-offset-4 hover:no-underline';

/** /free-plan (the product spec §2, §4): confirm the free plan; pending, success ('Plan has been upgraded') or error. */
export function FreePlanPage() {
  usePageTitle('Free plan');
  const claim = useClaimFreePlan();

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Free Plan</h1>
      <p className="mt-4 text-lg text-slate-700">
        Confirm that you want the free plan. It costs nothing and needs no card.
      </p>
      <section
        aria-labelledby="free-plan-summary"
        className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="free-plan-summary" className="text-lg font-semibold text-slate-900">
          {freePlan.name}: {formatUsd(freePlan.price)}/month
        </h2>
        <ul className="mt-4 space-y-2 text-slate-800">
          {freePlan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-indigo-700" />
              {feature}
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-6 flex flex-col gap-4">
        {claim.isPending ? <MessageBanner type="loading">Upgrading your plan...</MessageBanner> : null}
        {claim.isSuccess ? <MessageBanner type="success">{messages.freePlan.success}</MessageBanner> : null}
        {claim.isError ? (
          // The server's `error` (the same text as its `message`), else what went wrong on the way.
          <MessageBanner type="error">
            {errorMessage(claim.error, messages.common.unknownError)}
          </MessageBanner>
        ) : null}
        {claim.isSuccess ? (
          <div>
            <ButtonLink to={routes.dashboard}>Go to dashboard</ButtonLink>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-4">
            <Button onClick={() => claim.mutate()} isLoading={claim.isPending}>
              Confirm Free Plan
            </Button>
            <Link to={routes.plans} className={linkClasses}>
              Back to pricing
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}
