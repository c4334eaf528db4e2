import { routes } from '@altwise/contracts/routes';
import { Link } from 'react-router';
import { usePageMeta } from '../../lib/page-meta.tsx';
import { PostByline } from './blog-post-layout.tsx';
import { blogPosts } from './posts.ts';

export const blogIndexMeta = {
  title: 'Blogs',
  description:
    'Practical guides to writing alt text: what good alt text says, when an image is decorative, and how alt text helps SEO and online shops.',
};

export function BlogIndexPage() {
  usePageMeta(blogIndexMeta);
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Blogs</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-700">
        Short, practical guides to writing alt text that helps people and search engines alike.
      </p>
      <ul className="mt-10 grid gap-6">
        {blogPosts.map((post) => (
          <li key={post.path}>
            <article className="relative rounded-xl border border-slate-200 bg-white p-6 shadow-sm focus-within:ring-2 focus-within:ring-indigo-600 hover:border-indigo-300">
              <h2 className="text-xl font-semibold text-slate-900">
                <Link to={post.path} className="after:absolute after:inset-0 hover:underline">
                  {post.title}
                </Link>
              </h2>
              <p className="mt-2 text-slate-700">{post.description}</p>
              <div className="mt-4">
                <PostByline post={post} />
              </div>
            </article>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-slate-700">
        Want alt text written for you?{' '}
        <Link to={routes.register} className="font-semibold text-indigo-700 underline underline-offset-4">
          Start a free trial
        </Link>
        .
      </p>
    </div>
  );
}
