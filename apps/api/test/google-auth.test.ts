import { accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { users } from '../src/db/tables/users.ts';
import { type FakeGoogle, startFakeGoogle } from './fake-google.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
  t = await buildTestApp({ env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl } });
});
afterAll(async () => {
  await t?.cleanup();
  await google?.close();
});

const db = () => t.app.deps.database.db;
const signIn = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/users/auth/google', payload });
const profile = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/v1/users/profile',
    headers: { authorization: `Bearer ${token}` },
  });

describe('Google sign-in', () => {
  it('publishes the client id for the browser', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.json()).toEqual({ googleClientId: google.clientId });
  });

  it('refuses to log in an unknown account (isLogin) with 404 and creates nothing', async () => {
    const response = await signIn({ credential: await google.idToken(), isLogin: true, provider: 'google' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'Account not found. Please register first.',
      code: 'NOT_FOUND',
    });
    expect(await db().select().from(users)).toEqual([]);
  });

  it('signs up a new user from the verified token: confirmed, no password, 25 credits', async () => {
    const credential = await google.idToken();
    const response = await signIn({
      credential,
      email: 'grace@example.com',
      googleId: '1098765432101234567890',
      firstName: 'Grace',
      lastName: 'Hopper',
      provider: 'google',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      status: 'success',
      isExistingUser: false,
      message: messages.google.created,
      token: expect.any(String),
      user: {
        id: expect.any(String),
        username: 'grace',
        email: 'grace@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
      },
    });
    expect((await profile(body.token)).json().user.image_credits).toBe(25);
    const [user] = await db().select().from(users).where(eq(users.id, body.user.id));
    expect(user).toMatchObject({ googleSub: '1098765432101234567890', passwordHash: null });
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
  });

  it('logs an existing user in, with the sign-up and the login messages', async () => {
    const again = await signIn({ credential: await google.idToken() });
    expect(again.json()).toMatchObject({ isExistingUser: true, message: messages.google.alreadyRegistered });
    const login = await signIn({ credential: await google.idToken(), isLogin: true });
    expect(login.json()).toMatchObject({ isExistingUser: true, message: messages.google.loginSuccess });
    expect((await profile(login.json().token)).json().user.image_credits).toBe(25);
    const [user] = await db().select().from(users).where(eq(users.email, 'grace@example.com'));
    expect(
      await db()
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.userId, user?.id ?? '')),
    ).toHaveLength(1);
  });

  it('tells a Google-only account how to get a password', async () => {
    const token = (await signIn({ credential: await google.idToken(), isLogin: true })).json().token;
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/change-password',
      headers: { authorization: `Bearer ${token}` },
      payload: { currentPassword: 'anything', newPassword: 'something-new' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toBe(accountMessages.noPasswordYet);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      payload: { email: 'grace@example.com', password: 'anything' },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().message).toBe(accountMessages.googlePasswordLogin);
  });

  it.each([
    [
      'a wrong audience',
      () => google.idToken({ aud: 'someone-else.apps.googleusercontent.com' }),
      accountMessages.googleInvalid,
    ],
    ['a wrong issuer', () => google.idToken({ iss: 'https://evil.example' }), accountMessages.googleInvalid],
    [
      'an expired token',
      () => google.idToken({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 }),
      accountMessages.googleExpired,
    ],
    [
      'an unverified email',
      () => google.idToken({ email_verified: false }),
      accountMessages.googleUnverified,
    ],
    ['a forged signature', () => google.idToken({}, { forge: true }), accountMessages.googleInvalid],
    ['something that is not a JWT', async () => 'not-a-jwt', accountMessages.googleInvalid],
  ])('refuses %s with 401 and changes nothing', async (_name, credential, message) => {
    const before = await db().select().from(users);
    const response = await signIn({ credential: await credential() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message, code: 'UNAUTHORIZED' });
    expect(await db().select().from(users)).toEqual(before);
  });

  it('refuses an email or Google id in the body that disagrees with the token', async () => {
    const credential = await google.idToken({ sub: 'new-person', email: 'new.person@example.com' });
    for (const extra of [{ email: 'grace@example.com' }, { googleId: '1098765432101234567890' }]) {
      const response = await signIn({ credential, ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: accountMessages.googleMismatch, code: 'BAD_REQUEST' });
    }
    expect(await db().select().from(users).where(eq(users.email, 'new.person@example.com'))).toEqual([]);
  });

  it('links a confirmed password account with the same address and keeps its password', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: {
        firstName: 'Kat',
        lastName: 'Johnson',
        email: 'Kat@Example.com',
        password: 'kat-password-1',
      },
    });
    await db().update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, 'Kat@Example.com'));
    const response = await signIn({
      credential: await google.idToken({ sub: 'kat-sub', email: 'kat@example.com' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ isExistingUser: true, user: { email: 'Kat@Example.com' } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      payload: { email: 'kat@example.com', password: 'kat-password-1' },
    });
    expect(login.statusCode).toBe(200);
    const [user] = await db().select().from(users).where(eq(users.email, 'Kat@Example.com'));
    expect(user?.googleSub).toBe('kat-sub');
  });

  it('links an unconfirmed account: confirms it, grants the credits, drops the unproven password', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: {
        firstName: 'Squatter',
        lastName: 'X',
        email: 'mary@example.com',
        password: 'attacker-knows-1',
      },
    });
    const response = await signIn({
      credential: await google.idToken({ sub: 'mary-sub', email: 'mary@example.com' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().isExistingUser).toBe(true);
    expect((await profile(response.json().token)).json().user.image_credits).toBe(25);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      payload: { email: 'mary@example.com', password: 'attacker-knows-1' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('refuses a missing credential and extra fields', async () => {
    expect((await signIn({ email: 'grace@example.com' })).statusCode).toBe(400);
    expect((await signIn({ credential: 'x', role: 'admin' })).statusCode).toBe(400);
  });
});

describe('Google key set unreachable', () => {
  it('answers 502 rather than blaming the person', async () => {
    const offline = await buildTestApp({
      env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: 'http://127.0.0.1:9/certs' },
    });
    try {
      const response = await offline.app.inject({
        method: 'POST',
        url: '/api/v1/users/auth/google',
        payload: { credential: await google.idToken() },
      });
      expect(response.statusCode).toBe(502);
      expect(response.json().code).toBe('BAD_GATEWAY');
    } finally {
      await offline.cleanup();
    }
  });
});
