import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { usePageTitle } from '../lib/page-title.ts';
import { isChunkLoadError } from './chunk-loading.ts';
import { NotFoundPage } from './not-found-page.tsx';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message) return error.message;
  return messages.common.unknownError;
}

function ErrorContent({ error }: { error: unknown }) {
  const chunkFailed = isChunkLoadError(error);
  const title = chunkFailed ? messages.common.chunkLoadFailed : messages.common.unexpectedError;
  usePageTitle(title);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">
        {chunkFailed
          ? 'Part of Altwise could not be downloaded. This usually happens after an update or when the connection drops. Reloading the page fixes it.'
          : 'Something went wrong while showing this page. Reloading often helps; if it keeps happening, please tell our support team.'}
      </p>
      {chunkFailed ? null : (
        <p className="mt-4 rounded-md bg-slate-100 px-4 py-3 font-mono text-sm text-slate-800">
          {describe(error)}
        </p>
      )}
      <div className="mt-8 flex flex-wrap gap-3">
        <button type="button" className={buttonClasses()} onClick={() => window.location.reload()}>
          Reload page
        </button>
        <a href={routes.home} className={buttonClasses({ variant: 'secondary' })}>
          Go to the home page
        </a>
      </div>
    </div>
  );
}

/**
 * The router's error element. Inside the app frame it fills <main>; as the outermost boundary (when the
 * frame itself failed) it brings its own <main>.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const content =
    isRouteErrorResponse(error) && error.status === 404 ? <NotFoundPage /> : <ErrorContent error={error} />;
  if (!standalone) return content;
  return (
    <main id="main" tabIndex={-1}>
      {content}
    </main>
  );
}
