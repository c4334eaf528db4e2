import { messages } from '@altwise/contracts/messages';
// Only the context (a few bytes); the client and the rest of TanStack Query come with query-provider.tsx.
import { QueryClientContext } from '@tanstack/react-query';
import { type ReactNode, Suspense, use } from 'react';
import { Spinner } from '../components/ui/spinner.tsx';
import { needsQueryClient } from './pages-without-queries.ts';

type QueryProviderModule = typeof import('./query-provider.tsx');

let loaded: QueryProviderModule | undefined;
let loading: Promise<QueryProviderModule> | undefined;

/**
 * Downloads TanStack Query and the app's QueryClient (a separate chunk, see pages-without-queries.ts).
 * main.tsx starts it before the first render, or when the browser is idle on a page without queries.
 */
export function loadQueryProvider(): Promise<QueryProviderModule> {
  loading ??= import('./query-provider.tsx').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

function LoadedQueryProvider({ children }: { children: ReactNode }) {
  const module = loaded ?? use(loadQueryProvider());
  return <module.QueryProvider>{children}</module.QueryProvider>;
}

function PageLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-24 text-slate-800">
      <Spinner className="size-6 text-indigo-700" />
      <span>{messages.common.loading}</span>
    </div>
  );
}

/**
 * Wraps the page at `pathname` in the QueryClient provider, unless it is a page without queries or a client
 * is already provided (unit tests render the app with their own).
 */
export function PageQueryProvider({ pathname, children }: { pathname: string; children: ReactNode }) {
  const provided = use(QueryClientContext);
  if (provided || !needsQueryClient(pathname)) return children;
  return (
    <Suspense fallback={<PageLoading />}>
      <LoadedQueryProvider>{children}</LoadedQueryProvider>
    </Suspense>
  );
}
