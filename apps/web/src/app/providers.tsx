import type { ReactNode } from 'react';
import { Toaster } from '../components/ui/toaster.tsx';
import { AuthProvider } from '../lib/auth.tsx';

/**
 * App-wide providers. TanStack Query's provider is not here: AppShell gives it to the pages that use it
 * (page-query-provider.tsx), so that content-only pages such as the landing page do not download it.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      {children}
      <Toaster />
    </AuthProvider>
  );
}
