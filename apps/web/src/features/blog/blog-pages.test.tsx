import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { blogPosts } from './posts.ts';

describe('blog', () => {
  it.each(['/blogs', '/blog'])(
    '%s lists the three articles with author, date and read time',
    async (path) => {
      renderApp(path);
      await screen.findByRole('heading', { level: 1, name: 'Blogs' });
      const articles = screen.getAllByRole('article');
      expect(articles).toHaveLength(3);
      for (const [index, post] of blogPosts.entries()) {
        const article = within(articles[index] as HTMLElement);
        expect(article.getByRole('link', { name: post.title })).toHaveAttribute('href', post.path);
        expect(articles[index]).toHaveTextContent(`By ${post.author}`);
        expect(articles[index]).toHaveTextContent('2 minutes read');
      }
    },
  );

  it.each(blogPosts.map((post) => [post.path, post] as const))(
    '%s has its title, byline and a sign-up call to action',
    async (path, post) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeInTheDocument();
      await waitFor(() => expect(document.title).toBe(`${post.title} – Altwise`));
      expect(screen.getByText(`By ${post.author}`)).toBeInTheDocument();
      expect(screen.getByText('2 minutes read')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Start free trial' })).toHaveAttribute('href', '/register');
      expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(3);
    },
  );
});
