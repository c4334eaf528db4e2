import { FREE_CREDITS } from '@altwise/contracts/limits';
import { routes } from '@altwise/contracts/routes';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon } from '../../components/ui/icons.tsx';
import { usePageMeta } from '../../lib/page-meta.tsx';
import { type BlogPost, formatPostDate } from './posts.ts';

/** Author, date and read time, as shown on the index and at the top of each article. */
export function PostByline({ post }: { post: BlogPost }) {
  return (
    <p className="flex flex-wrap gap-x-2 text-sm text-slate-700">
      <span>By {post.author}</span>
      <span aria-hidden="true">·</span>
      <time dateTime={post.date}>{formatPostDate(post.date)}</time>
      <span aria-hidden="true">·</span>
      <span>{post.readTime} read</span>
    </p>
  );
}

/** An article: title, byline, body and the sign-up call to action every article ends with. */
export function BlogPostLayout({ post, children }: { post: BlogPost; children: ReactNode }) {
  usePageMeta({ title: post.title, description: post.description });
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <p>
        <Link
          to={routes.blogs}
          className="inline-flex items-center gap-2 text-sm font-semibold text-indigo-700 underline-offset-4 hover:underline"
        >
          <ArrowLeftIcon className="size-4" />
          All articles
        </Link>
      </p>
      <header className="mt-6 border-b border-slate-200 pb-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{post.title}</h1>
        <p className="mt-4 text-lg text-slate-700">{post.description}</p>
        <div className="mt-4">
          <PostByline post={post} />
        </div>
      </header>
      <div className="mt-8">{children}</div>
      <aside
        aria-labelledby="post-cta-heading"
        className="focus-light mt-12 rounded-2xl bg-indigo-900 p-8 text-white"
      >
        <h2 id="post-cta-heading" className="text-2xl font-bold">
          Let Altwise write the first draft
        </h2>
        <p className="mt-2 text-indigo-100">
          Scan a page or upload images and get specific, concise alt text for each one, ready for you to
          review. Your first {FREE_CREDITS} credits are free, no credit card needed.
        </p>
        <Link
          to={routes.register}
          className="mt-6 inline-flex min-h-12 items-center rounded-md bg-white px-6 font-semibold text-indigo-900 hover:bg-indigo-50"
        >
          Start free trial
        </Link>
      </aside>
    </article>
  );
}
