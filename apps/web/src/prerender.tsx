/**
 * Server entry for the build-time prerender (scripts/prerender.ts): renders the public pages to HTML with
 * React Router's static handler, so that crawlers and people without JavaScript get the real content.
 */
import { routes } from '@altwise/contracts/routes';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { loadQueryProvider } from './app/page-query-provider.tsx';
import { AppProviders } from './app/providers.tsx';
import { appRoutes } from './app/router.tsx';
import { blogPosts } from './features/blog/posts.ts';
import { defaultPageMeta, PageMetaCollectorProvider, type ResolvedPageMeta } from './lib/page-meta.tsx';

export { isContentOnlyPage, isSignInPage, needsQueryClient } from './app/pages-without-queries.ts';
export { buildRobotsTxt, buildSitemapXml } from './lib/sitemap.ts';

/** The public pages of the product spec §2 that have content worth indexing, in sitemap order. */
const indexedPaths: readonly string[] = [
  '/',
  '/plans',
  '/support',
  '/blogs',
  '/blog',
  ...blogPosts.map((post) => post.path),
  routes.developers,
  routes.accuracy,
];

/**
 * Prerendered so that they arrive with their own title and readable text, but left out of the sitemap:
 * the forms to sign in and sign up are not content to index (ADR 027).
 */
const unindexedPaths: readonly string[] = [routes.login, routes.register];

export const prerenderedPaths: readonly string[] = [...indexedPaths, ...unindexedPaths];

/** /blog shows the same index as /blogs: search engines are pointed to /blogs only. */
export function canonicalPath(pathname: string): string {
  return pathname === routes.blog ? routes.blogs : pathname;
}

/** The sitemap lists each page once, by its canonical path. */
export const sitemapPaths: readonly string[] = indexedPaths.filter((path) => canonicalPath(path) === path);

/** Publication dates for the sitemap's lastmod. */
export const lastModified: Readonly<Record<string, string>> = Object.fromEntries(
  blogPosts.map((post) => [post.path, post.date]),
);

export type RenderedPage = { html: string; meta: ResolvedPageMeta };

export async function renderPage(pathname: string): Promise<RenderedPage> {
  // Loaded up front so that pages with queries render at once instead of suspending.
  await loadQueryProvider();
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(`http://prerender.invalid${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} redirected while prerendering.`);
  if (context.statusCode !== 200) throw new Error(`${pathname} rendered with status ${context.statusCode}.`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const collector: { meta?: ResolvedPageMeta } = {};
  const html = renderToString(
    <StrictMode>
      <PageMetaCollectorProvider collector={collector}>
        <AppProviders>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </PageMetaCollectorProvider>
    </StrictMode>,
  );
  return { html, meta: collector.meta ?? defaultPageMeta };
}
