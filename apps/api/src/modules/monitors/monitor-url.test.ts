import { describe, expect, it } from 'vitest';
import { normalizeMonitorUrl } from './monitor-url.ts';

describe('normalizeMonitorUrl', () => {
  it.each([
    ['a fragment', 'https://example.com/shop#x', 'https://example.com/shop'],
    ['an empty fragment', 'https://example.com/shop#', 'https://example.com/shop'],
    ['a trailing ?', 'https://example.com/shop?', 'https://example.com/shop'],
    ['a trailing ? and a fragment', 'https://example.com/shop?#top', 'https://example.com/shop'],
    ['an escaped unreserved letter', 'https://example.com/%64ocs', 'https://example.com/docs'],
    ['escaped unreserved marks', 'https://example.com/a%2D%2e%5F%7e', 'https://example.com/a-._~'],
    ['an escaped letter in the query', 'https://example.com/s?q=%61b', 'https://example.com/s?q=ab'],
    ['an upper-case host', 'https://EXAMPLE.com/shop', 'https://example.com/shop'],
    ['an escaped host', 'https://ex%61mple.com/', 'https://example.com/'],
    ['the default port', 'https://example.com:443/shop', 'https://example.com/shop'],
    ['the default http port', 'http://example.com:80/', 'http://example.com/'],
  ])('drops or decodes %s', (_, spelled, expected) => {
    expect(normalizeMonitorUrl(spelled)).toBe(expected);
  });

  it.each([
    ['an escaped slash', 'https://example.com/a%2fb', 'https://example.com/a%2Fb'],
    ['an escaped space', 'https://example.com/a%20b', 'https://example.com/a%20b'],
    ['an escaped & in the query', 'https://example.com/s?q=a%26b', 'https://example.com/s?q=a%26b'],
    ['another port', 'https://example.com:8443/', 'https://example.com:8443/'],
    ['a query', 'https://example.com/s?page=2', 'https://example.com/s?page=2'],
  ])('keeps %s', (_, spelled, expected) => {
    expect(normalizeMonitorUrl(spelled)).toBe(expected);
  });
});
