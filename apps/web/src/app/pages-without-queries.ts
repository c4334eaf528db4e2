import { routes } from '@altwise/contracts/routes';

/**
 * Pages that only show content and never call the API through TanStack Query. They render without it, so
 * the landing page and the articles do not download it (about 8 KB gzipped); every other page gets the
 * QueryClient from `PageQueryProvider`. A page added here must not use `useQuery`/`useMutation`: it
 * would fail with "No QueryClient set" in the app (unit tests provide their own client, e2e would catch it).
 */
const pagesWithoutQueries: ReadonlySet<string> = new Set([
  routes.home,
  routes.blogs,
  routes.blog,
  routes.blogPost(1),
  routes.blogPost(2),
  routes.blogPost(3),
  routes.accuracy,
]);

const normalize = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

export function needsQueryClient(pathname: string): boolean {
  return !pagesWithoutQueries.has(normalize(pathname));
}

/**
 * The same pages show nothing but content, links and the header: prerendered, they are served with the
 * few-KB entry src/public.ts instead of the app (ADR 027), and React takes over only for a signed-in
 * visitor. A page added above must therefore also work as plain HTML (no buttons or forms of its own).
 */
export function isContentOnlyPage(pathname: string): boolean {
  return pagesWithoutQueries.has(normalize(pathname));
}

/**
 * /login and /register: prerendered with their own entry (src/sign-in.tsx, ADR 038), which renders the form
 * with React but without the router; the app takes over when the visitor leaves the form.
 */
export function isSignInPage(pathname: string): boolean {
  const path = normalize(pathname);
  return path === routes.login || path === routes.register;
}
