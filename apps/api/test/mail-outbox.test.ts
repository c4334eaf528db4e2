import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { mailMessages } from '../src/db/tables/mail-messages.ts';
import { createOutboxTransport } from '../src/mail/outbox.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

let dev: TestApp;

beforeAll(async () => {
  dev = await buildTestApp({ env: { NODE_ENV: 'development' } });
});
afterAll(() => dev.cleanup());

function memoryLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, stream };
}

describe('the embedded outbox (no SMTP_URL)', () => {
  it('keeps the mail in the database, marks it sent by the outbox, and lists it at /dev/outbox in development', async () => {
    const register = await dev.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: { firstName: 'Lin', lastName: '<Chen>', email: 'lin@example.com', password: 'lin-password-1' },
    });
    expect(register.statusCode).toBe(201);
    const mail = await waitFor(async () => {
      const [row] = await dev.app.deps.database.db
        .select()
        .from(mailMessages)
        .where(eq(mailMessages.to, 'lin@example.com'));
      return row?.status === 'sent' ? row : null;
    });
    expect(mail).toMatchObject({
      kind: 'confirm-email',
      transport: 'outbox',
      subject: 'Confirm your Altwise account',
    });
    const link = /http:\/\/altwise\.test\/confirm-email\/[\w-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    const page = await dev.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('lin@example.com');
    expect(page.body).toContain(`<a href="${link}">${link}</a>`);
  });

  it('writes the full text, link included, to the log at info', async () => {
    const { lines, stream } = memoryLogger();
    const transport = createOutboxTransport(pino({ level: 'info' }, stream));
    await transport.deliver({
      id: 'm1',
      to: 'lin@example.com',
      subject: 'Confirm your Altwise account',
      text: 'Confirm your email: http://localhost:3000/confirm-email/abc',
      html: '<p>x</p>',
    });
    const entry = JSON.parse(lines[0] ?? '{}');
    expect(entry.level).toBe(30);
    expect(entry.msg).toContain('http://localhost:3000/confirm-email/abc');
    expect(entry.mail).toEqual({ id: 'm1', to: 'lin@example.com', subject: 'Confirm your Altwise account' });
  });

  it('is not served outside development', async () => {
    const test = await buildTestApp();
    try {
      expect((await test.app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await test.cleanup();
    }
  });
});

describe('an SMTP server that is down', () => {
  it('keeps the registration and records the failed delivery for the queue to retry', async () => {
    const down = await buildTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const register = await down.app.inject({
        method: 'POST',
        url: '/api/v1/users/register',
        payload: { firstName: 'Sam', lastName: 'Down', email: 'sam@example.com', password: 'sam-password-1' },
      });
      expect(register.statusCode).toBe(201);
      const mail = await waitFor(async () => {
        const [row] = await down.app.deps.database.db.select().from(mailMessages);
        return row?.status === 'failed' ? row : null;
      });
      expect(mail).toMatchObject({
        transport: 'smtp',
        attempts: 1,
        error: expect.stringMatching(/ECONNREFUSED/),
      });
    } finally {
      await down.cleanup();
    }
  });
});

describe('log redaction', () => {
  it('never writes passwords, Google credentials or the Authorization header', () => {
    const { lines, stream } = memoryLogger();
    const options = loggerOptions(loadConfig({ NODE_ENV: 'test' })) as pino.LoggerOptions;
    const logger = pino(options, stream);
    logger.info(
      {
        req: {
          headers: { authorization: 'Bearer secret-token' },
          body: { password: 'pw-1', credential: 'google-jwt' },
        },
        body: { currentPassword: 'pw-2', newPassword: 'pw-3', confirmPassword: 'pw-4' },
        password: 'pw-5',
        authorization: 'Bearer other',
      },
      'request',
    );
    const line = lines.join('');
    for (const secret of [
      'secret-token',
      'pw-1',
      'google-jwt',
      'pw-2',
      'pw-3',
      'pw-4',
      'pw-5',
      'Bearer other',
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('[Redacted]');
  });
});
