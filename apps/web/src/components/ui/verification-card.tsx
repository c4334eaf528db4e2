import type { ReactNode } from 'react';
import { Spinner } from './spinner.tsx';

/**
 * The card of a page that checks something on arrival (an emailed link, a payment) and says how it
 * went: a status region showing a spinner and `verifying` while `loading`, then the page's outcome.
 */
export function VerificationCard({
  loading,
  verifying,
  children,
}: {
  loading: boolean;
  verifying: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <div
        className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8"
        role="status"
      >
        {loading ? (
          <div className="flex flex-col items-center gap-4">
            <Spinner className="size-8 text-indigo-700" />
            <h1 className="text-2xl font-bold text-slate-900">{verifying}</h1>
          </div>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
