import { describe, expect, it } from 'vitest';
import { buildRobotsTxt, buildSitemapXml } from './sitemap.ts';

describe('sitemap.xml', () => {
  it('lists absolute URLs on the origin, with lastmod where known', () => {
    const xml = buildSitemapXml('https://altwise.example/', ['/', '/blog/post1'], {
      '/blog/post1': '2026-09-08',
    });
    expect(xml).toContain('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain('<loc>https://altwise.example/</loc>');
    expect(xml).toContain('<loc>https://altwise.example/blog/post1</loc>\n    <lastmod>2026-09-08</lastmod>');
    expect(xml.match(/<url>/g)).toHaveLength(2);
  });

  it('escapes XML special characters', () => {
    expect(buildSitemapXml('https://a.example', ['/?a=1&b=2'])).toContain(
      '<loc>https://a.example/?a=1&amp;b=2</loc>',
    );
  });
});

describe('robots.txt', () => {
  it('allows the site, keeps crawlers out of the API and files, and names the sitemap', () => {
    expect(buildRobotsTxt('https://altwise.example')).toBe(
      'User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /files/\n\nSitemap: https://altwise.example/sitemap.xml\n',
    );
  });
});
