import { createContext, type ReactNode, use, useEffect } from 'react';
import { formatPageTitle } from './page-title.ts';

/** What a public page says about itself to browsers, search engines and link previews. */
export type PageMeta = {
  /** The page's own title; ' – Altwise' is appended unless `raw`. */
  title: string;
  /** One or two sentences shown under the link in search results (about 150 characters). */
  description: string;
  raw?: boolean;
};

export type ResolvedPageMeta = { title: string; description: string };

/** The site-wide title and description of index.html, kept for pages that describe nothing of their own. */
export const defaultPageMeta: ResolvedPageMeta = {
  title: 'Altwise – AI alt text for every image',
  description:
    'Altwise writes accurate, descriptive alt text for your images with AI. Scrape a page or upload images and get accessible alt text in minutes. Your first 25 credits are free.',
};

export function resolvePageMeta({ title, description, raw = false }: PageMeta): ResolvedPageMeta {
  return { title: raw ? title : formatPageTitle(title), description };
}

/**
 * While prerendering (no effects run on the server), the page hands its meta to this collector during
 * render; the build script writes it into the page's <head>.
 */
export type PageMetaCollector = { meta?: ResolvedPageMeta };
const PageMetaCollectorContext = createContext<PageMetaCollector | null>(null);

export function PageMetaCollectorProvider({
  collector,
  children,
}: {
  collector: PageMetaCollector;
  children: ReactNode;
}) {
  return <PageMetaCollectorContext value={collector}>{children}</PageMetaCollectorContext>;
}

function setMetaContent(selector: string, content: string): void {
  const element = document.head.querySelector<HTMLMetaElement>(selector);
  if (element) element.content = content;
}

const descriptionSelectors = ['meta[name="description"]', 'meta[property="og:description"]'];
const titleSelectors = ['meta[property="og:title"]'];

/**
 * Sets the document title (WCAG 2.4.2), the meta description and the Open Graph title and description
 * after each client-side navigation; puts the site-wide defaults back when the page goes away, so a page
 * that only sets its title does not inherit another page's description.
 */
export function usePageMeta(meta: PageMeta): void {
  const { title, description } = resolvePageMeta(meta);
  const collector = use(PageMetaCollectorContext);
  if (collector) collector.meta = { title, description };

  useEffect(() => {
    document.title = title;
    for (const selector of titleSelectors) setMetaContent(selector, title);
    for (const selector of descriptionSelectors) setMetaContent(selector, description);
    return () => {
      for (const selector of titleSelectors) setMetaContent(selector, defaultPageMeta.title);
      for (const selector of descriptionSelectors) setMetaContent(selector, defaultPageMeta.description);
    };
  }, [title, description]);
}
