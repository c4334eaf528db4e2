import { BLOG_READ_TIME } from '@altwise/contracts/limits';
import { describe, expect, it } from 'vitest';
import { blogPosts, findBlogPost, formatPostDate } from './posts.ts';

describe('blog posts', () => {
  it('lists the three articles at /blog/post1..3, each with the fields of the product spec §3', () => {
    expect(blogPosts.map((post) => post.path)).toEqual(['/blog/post1', '/blog/post2', '/blog/post3']);
    for (const post of blogPosts) {
      expect(post.title.length).toBeGreaterThan(10);
      expect(post.description.length).toBeGreaterThan(50);
      expect(post.description.length).toBeLessThanOrEqual(160);
      expect(post.author).not.toBe('');
      expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(post.readTime).toBe(BLOG_READ_TIME);
    }
    expect(new Set(blogPosts.map((post) => post.title)).size).toBe(3);
  });

  it('finds a post by number', () => {
    expect(findBlogPost(2)?.path).toBe('/blog/post2');
    expect(findBlogPost(4)).toBeUndefined();
  });

  it("formats dates as 'MMM dd, yyyy' whatever the time zone", () => {
    expect(formatPostDate('2026-11-03')).toBe('Nov 03, 2026');
    expect(formatPostDate('2026-01-01')).toBe('Jan 01, 2026');
  });
});
