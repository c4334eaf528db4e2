import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { accountTokens } from '../src/db/tables/account-tokens.ts';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { mailMessages } from '../src/db/tables/mail-messages.ts';
import { users } from '../src/db/tables/users.ts';
import { buildTestApp, type TestApp } from './helper.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from './mail-server.ts';

let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Altwise <hello@altwise.test>' } });
});
afterAll(async () => {
  await t?.cleanup();
  await smtp?.close();
});

const db = () => t.app.deps.database.db;
const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const put = (url: string, payload: unknown, token?: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1${url}`,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const get = (url: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

const profile = async (token: string) => (await get('/users/profile', token)).json().user;
const countRows = async (table: 'users' | 'mail_messages' | 'account_tokens' | 'credit_ledger') =>
  Number(
    (await queryRows<{ n: string }>(db(), sql`select count(*)::text as n from ${sql.identifier(table)}`))[0]
      ?.n,
  );

const registration = (email: string, password = 'first-password-1') => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email,
  password,
  confirmPassword: password,
});

/** Registers, reads the confirmation mail from the SMTP server and opens its link. */
async function registerAndConfirm(email: string, password = 'first-password-1') {
  expect((await post('/users/register', registration(email, password))).statusCode).toBe(201);
  const mail = await smtp.waitForMail(email, /Confirm/);
  const token = linkIn(mail, 'http://altwise.test/confirm-email/').split('/').pop() ?? '';
  expect((await get(`/users/confirm-email/${token}`)).statusCode).toBe(200);
  const login = await post('/users/login', { email, password });
  expect(login.statusCode).toBe(200);
  return login.json().token as string;
}

describe('register, confirm by email, log in', () => {
  const email = 'ada@example.com';
  let confirmationToken = '';

  it('creates the account, stores an argon2id hash and mails a confirmation link over SMTP', async () => {
    const response = await post('/users/register', registration(email));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ status: 'success', message: accountMessages.registered });

    const [user] = await db().select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', username: 'ada', imageCredits: 0 });
    expect(user?.emailConfirmedAt).toBeNull();
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(user)).not.toContain('first-password-1');

    const mail = await smtp.waitForMail(email, /Confirm your Altwise account/);
    expect(mail.from?.value).toEqual([{ name: 'Altwise', address: 'hello@altwise.test' }]);
    const link = linkIn(mail, 'http://altwise.test/confirm-email/');
    expect(mail.html).toContain(link);
    confirmationToken = link.split('/').pop() ?? '';
    expect(confirmationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Only the token's hash is stored; the mail row records the delivery.
    const tokens = await db().select().from(accountTokens);
    expect(tokens.map((row) => row.tokenHash)).not.toContain(confirmationToken);
    // The job marks the row sent just after the SMTP server has the message, so wait for it.
    await expect
      .poll(async () => (await db().select().from(mailMessages).where(eq(mailMessages.to, email)))[0], {
        timeout: 10_000,
      })
      .toMatchObject({ kind: 'confirm-email', status: 'sent', transport: 'smtp', attempts: 1 });
    const [stored] = await db().select().from(mailMessages).where(eq(mailMessages.to, email));
    expect(stored?.text).toContain(link);
  });

  it('refuses login before confirmation with 403 EMAIL_NOT_CONFIRMED, after checking the password', async () => {
    const early = await post('/users/login', { email, password: 'first-password-1' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: accountMessages.emailNotConfirmed, code: 'EMAIL_NOT_CONFIRMED' });
    expect(early.json().message).toMatch(/Resend confirmation email/);
    const wrong = await post('/users/login', { email, password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password', code: 'UNAUTHORIZED' });
  });

  it('resends the link to an unconfirmed account, and answers the same for an unknown address', async () => {
    const known = await post('/users/resend-confirmation', { email: 'ADA@example.com' });
    const unknown = await post('/users/resend-confirmation', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ status: 'success', message: accountMessages.confirmationResent });
    const second = await smtp.waitForMail(email, /Confirm/, 2);
    expect(linkIn(second, 'http://altwise.test/confirm-email/')).not.toContain(confirmationToken);
    expect(await db().select().from(mailMessages).where(eq(mailMessages.to, 'nobody@example.com'))).toEqual(
      [],
    );
  });

  it('confirms with the mailed link and grants the 25 free credits exactly once', async () => {
    const response = await get(`/users/confirm-email/${confirmationToken}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: messages.confirmEmail.success });

    const again = await get(`/users/confirm-email/${confirmationToken}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      status: 'error',
      message: accountMessages.alreadyConfirmed,
      code: 'EMAIL_ALREADY_CONFIRMED',
    });
    // The resent link, opened after confirmation, says the same and grants nothing.
    const resent = await smtp.waitForMail(email, /Confirm/, 2);
    const resentToken = linkIn(resent, 'http://altwise.test/confirm-email/').split('/').pop();
    expect((await get(`/users/confirm-email/${resentToken}`)).statusCode).toBe(409);

    const [user] = await db().select().from(users).where(eq(users.email, email));
    expect(user?.emailConfirmedAt).toBeInstanceOf(Date);
    expect(user?.imageCredits).toBe(25);
    const ledger = await db()
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user?.id ?? ''));
    expect(ledger).toEqual([
      expect.objectContaining({ delta: 25, reason: 'grant', reference: 'signup-bonus', balanceAfter: 25 }),
    ]);
  });

  it('logs in with any letter case of the email and answers the product spec shape', async () => {
    const response = await post('/users/login', { email: 'Ada@Example.COM', password: 'first-password-1' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      status: 'success',
      message: 'Login successful',
      token: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
      user: { id: expect.any(String), username: 'ada', email, firstName: 'Ada', lastName: 'Lovelace' },
    });
    const user = await profile(body.token);
    expect(user).toEqual({
      id: body.user.id,
      username: 'ada',
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      image_credits: 25,
      imagecount: 0,
      subscriptionPlan: 'Trial',
      apiRequestCount: 0,
      monthlyRequestCount: 25,
      contentHistory: [],
    });
  });

  it('answers a wrong password and an unknown address alike', async () => {
    for (const payload of [
      { email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: 'first-password-1' },
    ]) {
      const response = await post('/users/login', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid email or password', code: 'UNAUTHORIZED' });
    }
  });
});

describe('confirmation links that do not work', () => {
  it('names an unknown or malformed link with status error and TOKEN_INVALID', async () => {
    for (const token of ['A'.repeat(43), 'abc', 'not a token']) {
      const response = await get(`/users/confirm-email/${encodeURIComponent(token)}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        status: 'error',
        message: accountMessages.confirmationInvalid,
        code: 'TOKEN_INVALID',
      });
    }
  });

  it('refuses an expired link with 410 TOKEN_EXPIRED and confirms nothing', async () => {
    const email = 'late@example.com';
    await post('/users/register', registration(email));
    const mail = await smtp.waitForMail(email, /Confirm/);
    const token = linkIn(mail, 'http://altwise.test/confirm-email/').split('/').pop();
    const [user] = await db().select().from(users).where(eq(users.email, email));
    await db()
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, user?.id ?? ''));
    const response = await get(`/users/confirm-email/${token}`);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual({
      status: 'error',
      message: accountMessages.confirmationExpired,
      code: 'TOKEN_EXPIRED',
    });
    const [after] = await db().select().from(users).where(eq(users.email, email));
    expect(after?.emailConfirmedAt).toBeNull();
    expect(after?.imageCredits).toBe(0);
  });
});

describe('bad input on register and login', () => {
  it('refuses an address that differs only in case with 409, writing nothing', async () => {
    const before = await Promise.all([
      countRows('users'),
      countRows('mail_messages'),
      countRows('account_tokens'),
    ]);
    const response = await post('/users/register', registration('  ADA@EXAMPLE.com '));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'An account with this email already exists',
      code: 'CONFLICT',
    });
    expect(
      await Promise.all([countRows('users'), countRows('mail_messages'), countRows('account_tokens')]),
    ).toEqual(before);
  });

  it.each([
    ['missing fields', {}, /firstName: First name is required/],
    ['an extra field', { ...registration('x1@example.com'), isAdmin: true }, /Unrecognized key/],
    [
      'a name over 100 characters',
      { ...registration('x2@example.com'), lastName: 'L'.repeat(101) },
      /Last name must be at most 100 characters/,
    ],
    [
      'an email over 254 characters',
      registration(`${'e'.repeat(250)}@example.com`),
      /Email must be at most 254 characters/,
    ],
    [
      'a password over 256 characters',
      registration('x3@example.com', 'p'.repeat(257)),
      /Password must be at most 256 characters/,
    ],
    ['an invalid email', registration('not-an-email'), /Enter a valid email/],
    [
      'mismatched passwords',
      { ...registration('x4@example.com'), confirmPassword: 'other' },
      /Passwords must match/,
    ],
  ])('refuses %s with 400 VALIDATION_ERROR and writes nothing', async (_name, payload, message) => {
    const before = await countRows('users');
    const response = await post('/users/register', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(response.json().message).toMatch(message);
    expect(await countRows('users')).toBe(before);
  });

  it('refuses malformed JSON with a clear 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "ada@example.com", "password": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request body is not valid JSON. Check its quotes, commas and brackets.',
      code: 'BAD_REQUEST',
    });
  });

  it('uses the login form messages of the product spec §5', async () => {
    const response = await post('/users/login', { email: 'nope', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { path: 'email', message: 'Invalid email address' },
      { path: 'password', message: 'Required' },
    ]);
  });
});

describe('sessions', () => {
  let token = '';
  beforeAll(async () => {
    token = await registerAndConfirm('sessions@example.com');
  });

  it('answers 401 UNAUTHORIZED without a token, with a malformed one and with a tampered one', async () => {
    const [payloadPart = '', , signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString());
    const otherClaims = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-0000-0000-000000000000' }),
    ).toString('base64url');
    const tampered = [token.split('.')[0], otherClaims, signature].join('.');
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const header of [
      undefined,
      'Bearer',
      'Basic abc',
      `Bearer ${tampered}`,
      `Bearer ${flipped}`,
      'Bearer x.y.z',
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/users/profile',
        headers: header ? { authorization: header } : {},
      });
      expect(response.statusCode, header).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('answers 401 for an expired token and for one signed with another secret', async () => {
    const secret = (await readFile(path.join(t.dataDir, 'jwt-secret'), 'utf8')).trim();
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    const sign = (key: string, exp: number) =>
      new SignJWT({ sv: claims.sv })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer('altwise')
        .setAudience('altwise-api')
        .setIssuedAt(exp - 3600)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const now = Math.floor(Date.now() / 1000);
    expect((await get('/users/profile', await sign(secret, now + 600))).statusCode).toBe(200);
    const expired = await get('/users/profile', await sign(secret, now - 10));
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      message: 'Your session has expired or is no longer valid. Please log in again.',
      code: 'UNAUTHORIZED',
    });
    expect(
      (await get('/users/profile', await sign('another-secret-another-secret-1234', now + 600))).statusCode,
    ).toBe(401);
  });

  it('keeps its signing secret in DATA_DIR/jwt-secret when JWT_SECRET is unset', async () => {
    const secret = (await readFile(path.join(t.dataDir, 'jwt-secret'), 'utf8')).trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
  });

  it('answers 401 for the token of a deleted user', async () => {
    const doomed = await registerAndConfirm('doomed@example.com');
    await db().delete(users).where(eq(users.email, 'doomed@example.com'));
    const response = await get('/users/profile', doomed);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });
});

describe('profile and password', () => {
  const email = 'grace.profile@example.com';
  let token = '';
  beforeAll(async () => {
    token = await registerAndConfirm(email, 'old-password-1');
  });

  it('updates the names', async () => {
    const response = await put('/users/update-profile', { firstName: ' Grace ', lastName: 'Hopper' }, token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'success',
      message: 'Profile updated successfully!',
      user: { email, firstName: 'Grace', lastName: 'Hopper' },
    });
    expect(await profile(token)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email });
  });

  it.each([
    ['an extra field', { firstName: 'A', lastName: 'B', email: 'evil@example.com' }],
    ['a missing last name', { firstName: 'A' }],
    ['a first name over 100 characters', { firstName: 'F'.repeat(101), lastName: 'B' }],
  ])('refuses %s without changing anything', async (_name, payload) => {
    const response = await put('/users/update-profile', payload, token);
    expect(response.statusCode).toBe(400);
    expect(await profile(token)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email });
  });

  it('needs a session', async () => {
    expect((await put('/users/update-profile', { firstName: 'A', lastName: 'B' })).statusCode).toBe(401);
    expect((await put('/users/change-password', { currentPassword: 'a', newPassword: 'b' })).statusCode).toBe(
      401,
    );
  });

  it('refuses a wrong current password with 400, keeping the session and the password', async () => {
    const response = await put(
      '/users/change-password',
      { currentPassword: 'guess', newPassword: 'new-password-2' },
      token,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'The current password is incorrect.',
      code: 'BAD_REQUEST',
    });
    expect((await get('/users/profile', token)).statusCode).toBe(200);
    expect((await post('/users/login', { email, password: 'old-password-1' })).statusCode).toBe(200);
  });

  it('changes the password: earlier sessions end, the answer carries a new token', async () => {
    const otherDevice = (await post('/users/login', { email, password: 'old-password-1' })).json().token;
    const response = await put(
      '/users/change-password',
      { currentPassword: 'old-password-1', newPassword: 'new-password-2' },
      token,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      status: 'success',
      message: 'Password updated successfully!',
      token: expect.any(String),
    });
    expect((await get('/users/profile', token)).statusCode).toBe(401);
    expect((await get('/users/profile', otherDevice)).statusCode).toBe(401);
    expect((await get('/users/profile', body.token)).statusCode).toBe(200);
    expect((await post('/users/login', { email, password: 'old-password-1' })).statusCode).toBe(401);
    expect((await post('/users/login', { email, password: 'new-password-2' })).statusCode).toBe(200);
    token = body.token;
  });
});

describe('forgotten password', () => {
  const email = 'forgetful@example.com';
  let session = '';
  beforeAll(async () => {
    session = await registerAndConfirm(email, 'remembered-1');
  });

  const resetTokenFrom = async (nth: number) => {
    const mail = await smtp.waitForMail(email, /Reset your Altwise password/, nth);
    const link = linkIn(mail, 'http://altwise.test/reset-password?token=');
    return new URL(link).searchParams.get('token') ?? '';
  };

  it('answers the same for any address and mails a link only to an account', async () => {
    const known = await post('/users/forgot-password', { email: 'FORGETFUL@example.com' });
    const unknown = await post('/users/forgot-password', { email: 'stranger@example.com' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ status: 'success', message: accountMessages.resetRequested });
    expect(await resetTokenFrom(1)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await db().select().from(mailMessages).where(eq(mailMessages.to, 'stranger@example.com'))).toEqual(
      [],
    );
  });

  it('resets once with the link; every earlier session ends; the link cannot be used again', async () => {
    const token = await resetTokenFrom(1);
    const response = await post('/users/reset-password', { token, password: 'brand-new-3' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: accountMessages.passwordReset });
    expect((await get('/users/profile', session)).statusCode).toBe(401);
    expect((await post('/users/login', { email, password: 'remembered-1' })).statusCode).toBe(401);
    expect((await post('/users/login', { email, password: 'brand-new-3' })).statusCode).toBe(200);

    const reused = await post('/users/reset-password', { token, password: 'another-4' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: accountMessages.resetInvalid, code: 'TOKEN_INVALID' });
    expect((await post('/users/login', { email, password: 'brand-new-3' })).statusCode).toBe(200);
  });

  it('refuses an expired link with 410 and an unknown one with 400, changing nothing', async () => {
    await post('/users/forgot-password', { email });
    const token = await resetTokenFrom(2);
    await db()
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.purpose, 'reset-password'));
    const expired = await post('/users/reset-password', { token, password: 'too-late-5' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ message: accountMessages.resetExpired, code: 'TOKEN_EXPIRED' });
    const unknown = await post('/users/reset-password', { token: 'B'.repeat(43), password: 'too-late-5' });
    expect(unknown.statusCode).toBe(400);
    const incomplete = await post('/users/reset-password', { token: '', password: 'x' });
    expect(incomplete.statusCode).toBe(400);
    expect((await post('/users/login', { email, password: 'brand-new-3' })).statusCode).toBe(200);
  });
});

describe('the welcome mail', () => {
  const welcomesTo = async (email: string) =>
    (await db().select().from(mailMessages).where(eq(mailMessages.kind, 'welcome'))).filter(
      (row) => row.to === email,
    );

  it('waits for confirmation, then goes out once with the stored names', async () => {
    const email = 'welcome@example.com';
    await post('/users/register', registration(email));
    const early = await post('/email/registration', { firstName: '<b>Spam</b>', lastName: 'X', email });
    expect(early.statusCode).toBe(200);
    expect(early.json()).toEqual({ success: true });
    // Give a wrongly queued job time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await welcomesTo(email)).toEqual([]);

    const confirm = await smtp.waitForMail(email, /Confirm/);
    const token = linkIn(confirm, 'http://altwise.test/confirm-email/').split('/').pop() ?? '';
    expect((await get(`/users/confirm-email/${token}`)).statusCode).toBe(200);
    const welcome = await smtp.waitForMail(email, /Welcome to Altwise/);
    expect(welcome.text).toContain('Welcome to Altwise, Ada!');
    expect(welcome.text).not.toContain('Spam');

    expect((await post('/email/registration', { firstName: 'A', lastName: 'B', email })).json()).toEqual({
      success: true,
    });
    const stranger = await post('/email/registration', {
      firstName: 'A',
      lastName: 'B',
      email: 'victim@example.org',
    });
    expect(stranger.json()).toEqual({ success: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await welcomesTo(email)).toHaveLength(1);
    expect(await welcomesTo('victim@example.org')).toEqual([]);
  });
});

describe('password rules (ADR 074)', () => {
  it.each([
    ['"bread"', 'bread', 'Password must be at least 8 characters'],
    ['a common password', 'password1', 'This password is on a list of common or breached passwords'],
    ['a common password in other letter case', 'Iloveyou1', 'on a list of common or breached passwords'],
  ])('refuses %s at registration with a clear message', async (_name, password, message) => {
    const before = await countRows('users');
    const response = await post('/users/register', registration('rules@example.com', password));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    expect(response.json().message).toContain(message);
    expect(await countRows('users')).toBe(before);
  });

  it('accepts an uncommon password of 8 characters or more, without composition rules', async () => {
    const response = await post('/users/register', registration('rules@example.com', 'lanternfjord'));
    expect(response.statusCode).toBe(201);
  });
});

describe('Google sign-in when not configured', () => {
  it('tells the browser there is no client id, and the endpoint answers a clear 404', async () => {
    expect((await get('/config')).json()).toEqual({ googleClientId: null });
    const response = await post('/users/auth/google', { credential: 'x.y.z' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: accountMessages.googleDisabled, code: 'NOT_FOUND' });
  });
});
