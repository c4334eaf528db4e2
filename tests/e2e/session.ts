import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { baseURL } from './browser.ts';
import { signGoogleIdToken } from './google.ts';

export type E2eSession = {
  token: string;
  user: { id: string; username: string; email: string; firstName: string; lastName: string };
};

/**
 * A fresh, confirmed account with a real session token, made the quickest way the product allows: a
 * Google sign-up with a test-signed ID token (the server verifies it against the e2e keys).
 */
export async function createSession(): Promise<E2eSession> {
  const id = randomUUID().slice(0, 8);
  const credential = await signGoogleIdToken({
    sub: `e2e-${id}`,
    email: `eve-${id}@example.com`,
    givenName: 'Eve',
    familyName: 'Tester',
  });
  const response = await fetch(`${baseURL()}/api/v1/users/auth/google`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credential, provider: 'google' }),
  });
  if (!response.ok) throw new Error(`Google sign-up for the e2e session failed: ${await response.text()}`);
  const body = (await response.json()) as E2eSession;
  return { token: body.token, user: body.user };
}

/** Puts the session into the page's storage the way the app's login does (the product spec §3 keys). */
export async function storeSession(page: Page, session: E2eSession) {
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify(user));
    localStorage.setItem('userId', user.id);
  }, session);
}
