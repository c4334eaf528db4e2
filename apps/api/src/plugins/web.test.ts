import { describe, expect, it } from 'vitest';
import { isClientRoute } from './web.ts';

describe('isClientRoute', () => {
  it.each([
    '/',
    '/login',
    '/checkout/pro',
    '/checkout/pro/',
    '/confirm-email/abc.def',
    '/blog/post3',
    '/history',
  ])('knows %s', (pathname) => expect(isClientRoute(pathname)).toBe(true));

  it.each(['/nope', '/checkout', '/checkout/a/b', '/blog/post4', '/loginx', '/api/v1/health'])(
    'does not know %s',
    (pathname) => expect(isClientRoute(pathname)).toBe(false),
  );
});
