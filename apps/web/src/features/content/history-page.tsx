import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useContentHistory } from './api/get-content-history.ts';
import { formatDate, titleOf } from './format-date.ts';

/** The content history of the product spec §2/§3: each generated text with its date, newest first. */
export function HistoryPage() {
  usePageTitle('Content history');
  const history = useContentHistory();

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Content History</h1>
        <ButtonLink to={routes.generateContent} variant="secondary">
          Generate a blog post
        </ButtonLink>
      </div>

      <div className="mt-8">
        {history.isPending ? (
          <p role="status" className="flex items-center gap-3 text-slate-700">
            <Spinner className="size-5" /> {messages.common.loading}
          </p>
        ) : history.isError ? (
          <MessageBanner type="error">
            {errorMessage(history.error, messages.common.unknownError)}
          </MessageBanner>
        ) : history.data.contentHistory.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-400 p-8 text-center">
            <p className="text-lg font-medium text-slate-900">No content yet</p>
            <p className="mt-2 text-slate-700">
              The blog posts you generate will be listed here, newest first.
            </p>
          </div>
        ) : (
          <ol aria-label="Generated content" className="flex flex-col gap-6">
            {history.data.contentHistory.map((item) => (
              <li key={`${item.createdAt}:${item.content.length}`}>
                <article className="rounded-lg border border-slate-300 bg-white p-5">
                  <h2 className="text-lg font-semibold text-slate-900">
                    {titleOf(item.content) || 'Untitled'}
                  </h2>
                  <p className="mt-1 text-sm text-slate-700">
                    Generated on <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
                  </p>
                  <div className="mt-4 whitespace-pre-wrap text-slate-900">{item.content}</div>
                </article>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
