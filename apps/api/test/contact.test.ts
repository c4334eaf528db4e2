import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../src/db/tables/contact-messages.ts';
import { mailMessages } from '../src/db/tables/mail-messages.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import { startSmtpServer, type TestSmtpServer } from './mail-server.ts';

let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Altwise <hello@altwise.test>',
      SUPPORT_EMAIL: 'help@altwise.test',
      CONTACT_RATE_LIMIT_PER_IP: '3',
      CONTACT_RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });
});
afterAll(async () => {
  await t.cleanup();
  await smtp.close();
});

const valid = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  message: 'Hello,\nhow do I export my alt texts to a spreadsheet? <b>Thanks</b>',
};

let nextIp = 1;
/** Each test sends from its own address so the per-IP limit is tested only where meant. */
const send = (payload: unknown, remoteAddress = `10.1.0.${nextIp++}`) =>
  t.app.inject({ method: 'POST', url: '/api/v1/email/send', payload: payload as object, remoteAddress });

describe('POST /email/send', () => {
  it('stores the message, then emails it to the support address with reply-to the sender', async () => {
    const response = await send(valid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Message sent successfully! We will get back to you at our earliest',
    });

    const [stored] = await t.app.deps.database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, valid.email));
    expect(stored).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', message: valid.message });
    expect(stored?.mailMessageId).toBeTruthy();

    const mail = await smtp.waitForMail('help@altwise.test', /^Contact form: Grace Hopper$/);
    expect(mail.replyTo?.value[0]?.address).toBe('grace@example.com');
    expect(mail.from?.value[0]?.address).toBe('hello@altwise.test');
    expect(mail.text).toContain('how do I export my alt texts to a spreadsheet?');
    // The sender's text is escaped in the HTML part.
    expect(mail.html).toContain('&lt;b&gt;Thanks&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Thanks</b>');
  });

  it('keeps names on one line in the subject', async () => {
    const response = await send({
      ...valid,
      firstName: 'Eve\r\nBcc: victim@example.com',
      email: 'eve@example.com',
    });
    expect(response.statusCode).toBe(200);
    const mail = await smtp.waitForMail('help@altwise.test', /Eve/);
    expect(mail.subject).toBe('Contact form: Eve Bcc: victim@example.com Hopper');
    expect(mail.bcc).toBeUndefined();
  });

  it('answers 400 naming each missing or invalid field, and stores nothing', async () => {
    const response = await send({ firstName: ' ', email: 'not-an-email', message: '' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toEqual(expect.any(String));
    const byPath = Object.fromEntries(
      (body.errors as { path: string; message: string }[]).map((e) => [e.path, e.message]),
    );
    expect(byPath).toMatchObject({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Enter a valid email',
      message: 'A message is required',
    });
    const rows = await t.app.deps.database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, 'not-an-email'));
    expect(rows).toEqual([]);
  });

  it('refuses a message over 5,000 characters with a clear message', async () => {
    const response = await send({ ...valid, email: 'long@example.com', message: 'x'.repeat(5001) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ path: 'message', message: 'Message must be at most 5,000 characters' }],
    });
    expect((await send({ ...valid, email: 'long@example.com', message: 'x'.repeat(5000) })).statusCode).toBe(
      200,
    );
  });

  it('refuses names over 100 and emails over 254 characters, and unknown fields', async () => {
    const long = await send({ ...valid, lastName: 'y'.repeat(101), email: `${'a'.repeat(250)}@example.com` });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'lastName', message: 'Last name must be at most 100 characters' },
        { path: 'email', message: 'Email must be at most 254 characters' },
      ]),
    );
    expect((await send({ ...valid, userId: 'someone' })).statusCode).toBe(400);
  });

  it('limits messages per client address: 429 with Retry-After in the one error shape', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 3; i++) expect((await send(valid, ip)).statusCode).toBe(200);
    const limited = await send(valid, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: expect.stringMatching(
        /^Too many messages from your network\. Please wait \d+ seconds? and try again/,
      ),
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(valid, '10.9.9.10')).statusCode).toBe(200);
  });
});

describe('POST /email/send while the mail server is down', () => {
  it('still answers success and keeps the message, with its mail queued for retry', async () => {
    const down = await buildTestApp({
      env: { SMTP_URL: 'smtp://127.0.0.1:9', SUPPORT_EMAIL: 'help@altwise.test' },
    });
    try {
      const response = await down.app.inject({ method: 'POST', url: '/api/v1/email/send', payload: valid });
      expect(response.statusCode).toBe(200);
      const db = down.app.deps.database.db;
      const [stored] = await db.select().from(contactMessages);
      expect(stored).toMatchObject({ email: 'grace@example.com', message: valid.message });
      const mail = await waitFor(async () => {
        const [row] = await db.select().from(mailMessages).where(eq(mailMessages.kind, 'contact-message'));
        return row?.status === 'failed' ? row : null;
      });
      expect(mail).toMatchObject({
        id: stored?.mailMessageId,
        to: 'help@altwise.test',
        replyTo: 'grace@example.com',
        error: expect.stringMatching(/ECONNREFUSED/),
      });
    } finally {
      await down.cleanup();
    }
  });
});
