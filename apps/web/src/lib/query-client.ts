import { isServer, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';

const MAX_RETRIES = 2;

/** Client errors (4xx) will not fix themselves; only network failures and 5xx are retried. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // On the server (the build's prerender) no garbage-collection timer, as TanStack Query's own
        // default: a 5-minute timer per query kept `npm run build` alive for 5 minutes.
        gcTime: isServer ? Number.POSITIVE_INFINITY : 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
