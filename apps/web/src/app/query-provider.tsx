import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client.ts';

/** One client per page load, kept across navigations (and across pages with and without queries). */
const queryClient = createQueryClient();

/** Gives pages the app's QueryClient. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
