import { messages } from '@altwise/contracts/messages';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { useBillingHistory } from './api/get-billing-history.ts';
import { formatDate, transactionTitle } from './billing-display.ts';

const pagerButtonClasses = 'aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

/** The Payment History card: one server-side page at a time, with a pager when there is more than one. */
export function PaymentHistory() {
  const [page, setPage] = useState(1);
  const history = useBillingHistory(page);
  const totalPages = history.data?.pagination.totalPages ?? 1;
  const currentPage = history.data?.pagination.currentPage ?? page;
  // aria-disabled rather than disabled: a button that disables itself under the keyboard drops focus.
  const isFirst = currentPage <= 1;
  const isLast = currentPage >= totalPages;

  let body: React.ReactNode;
  if (history.isPending) {
    body = (
      <p className="flex items-center gap-2 text-slate-700">
        <Spinner className="size-4 text-indigo-700" />
        {messages.dashboard.loading}
      </p>
    );
  } else if (history.isError) {
    body = (
      <MessageBanner type="error">
        {serverMessage(history.error) ?? messages.common.unknownError}
      </MessageBanner>
    );
  } else if (history.data.history.length === 0) {
    body = <p className="text-slate-700">{messages.dashboard.noPaymentHistory}</p>;
  } else {
    body = (
      <ul className="divide-y divide-slate-200" aria-busy={history.isPlaceholderData || undefined}>
        {history.data.history.map((item) => (
          <li key={item.transactionId} className="grid gap-1 py-3 sm:grid-cols-[1fr_auto] sm:gap-4">
            <div>
              <p className="font-semibold text-slate-900">{transactionTitle(item.title)}</p>
              <p className="text-sm break-all text-slate-700">
                <span className="sr-only">Transaction ID: </span>
                {item.transactionId}
              </p>
            </div>
            <div className="text-sm text-slate-800 sm:text-right">
              <p>
                <span className="font-medium">Status:</span> {item.status}
              </p>
              <p>
                <span className="font-medium">Date:</span> {formatDate(item.date)}
              </p>
              <p>
                <span className="font-medium">Credits added:</span>{' '}
                {item.creditsAdded.toLocaleString('en-US')}
              </p>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card title="Payment History">
      {body}
      {totalPages > 1 ? (
        <nav aria-label="Payment history pages" className="mt-4 flex items-center justify-between gap-4">
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={isFirst}
            className={pagerButtonClasses}
            onClick={() => {
              if (!isFirst) setPage(currentPage - 1);
            }}
          >
            Previous
          </Button>
          <p className="text-sm text-slate-800" aria-live="polite">
            {`Page ${currentPage} of ${totalPages}`}
          </p>
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={isLast}
            className={pagerButtonClasses}
            onClick={() => {
              if (!isLast) setPage(currentPage + 1);
            }}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </Card>
  );
}
