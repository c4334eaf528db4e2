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
]);

export function needsQueryClient(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return !pagesWithoutQueries.has(path);
}
