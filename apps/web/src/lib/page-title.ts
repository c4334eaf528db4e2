import { useEffect } from 'react';

export const appName = 'Altwise';

export function formatPageTitle(title: string): string {
  return `${title} – ${appName}`;
}

/** Sets a unique document title per route (WCAG 2.4.2); screen readers read it after a navigation. */
export function usePageTitle(title: string, { raw = false }: { raw?: boolean } = {}): void {
  useEffect(() => {
    document.title = raw ? title : formatPageTitle(title);
  }, [title, raw]);
}
