import { BLOG_READ_TIME } from '@altwise/contracts/limits';
import { routes } from '@altwise/contracts/routes';

/** A blog article's metadata (the product spec §3): shared by the index, the article pages and the sitemap. */
export type BlogPost = {
  /** 1, 2 or 3: the article lives at /blog/post{n}. */
  n: 1 | 2 | 3;
  title: string;
  description: string;
  author: string;
  /** ISO date (YYYY-MM-DD) of publication. */
  date: string;
  readTime: string;
  path: string;
};

const post = (n: BlogPost['n'], fields: Omit<BlogPost, 'n' | 'readTime' | 'path'>): BlogPost => ({
  n,
  ...fields,
  readTime: BLOG_READ_TIME,
  path: routes.blogPost(n),
});

export const blogPosts: readonly BlogPost[] = [
  post(1, {
    title: 'What makes alt text good',
    description:
      'Good alt text says what an image contributes to the page, in a sentence or less. How to write it, with examples and the WCAG rule behind it.',
    author: 'Maya Okafor',
    date: '2026-09-08',
  }),
  post(2, {
    title: 'Decorative images: when empty alt text is the right answer',
    description:
      'Some images add nothing a reader needs. How to tell them apart from informative ones, and how to hide them from screen readers the right way.',
    author: 'Daniel Weiss',
    date: '2026-10-06',
  }),
  post(3, {
    title: 'Alt text for SEO and e-commerce product images',
    description:
      'Alt text helps search engines understand your images and helps shoppers who cannot see them. How to write it for product pages without keyword stuffing.',
    author: 'Maya Okafor',
    date: '2026-11-03',
  }),
];

export function findBlogPost(n: number): BlogPost | undefined {
  return blogPosts.find((p) => p.n === n);
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** 'Nov 03, 2026': the product's date format (the product spec §9, 'MMM dd, yyyy'). */
export function formatPostDate(isoDate: string): string {
  return dateFormat.format(new Date(`${isoDate}T00:00:00Z`));
}
