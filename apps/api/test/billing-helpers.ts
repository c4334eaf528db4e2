import { randomUUID } from 'node:crypto';
import { users } from '../src/db/tables/users.ts';
import { createSessionTokens, resolveJwtSecret } from '../src/modules/accounts/session-tokens.ts';
import { signWebhook } from '../src/modules/billing/standard-webhooks.ts';
import { resolveSandboxWebhookSecret } from '../src/modules/billing/webhook-secret.ts';
import { grantCredits } from '../src/modules/credits/service.ts';
import type { TestApp } from './helper.ts';

export type TestUser = { id: string; email: string; token: string; auth: { authorization: string } };

/** A confirmed account with `credits` credits and a session token, made directly in the database. */
export async function createUser(
  t: TestApp,
  credits = 0,
  email = `buyer-${randomUUID().slice(0, 8)}@example.com`,
) {
  const db = t.app.deps.database.db;
  const [user] = await db
    .insert(users)
    .values({
      email,
      username: email.split('@')[0] ?? 'buyer',
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailConfirmedAt: new Date(),
    })
    .returning();
  if (!user) throw new Error('no user');
  if (credits > 0) await db.transaction((tx) => grantCredits(tx, user.id, credits, 'grant', 'test-credits'));
  const sessions = createSessionTokens(await resolveJwtSecret(t.config), '1h');
  const token = await sessions.issue({ userId: user.id, sessionVersion: user.sessionVersion });
  return { id: user.id, email, token, auth: { authorization: `Bearer ${token}` } } satisfies TestUser;
}

export async function balanceOf(t: TestApp, user: TestUser): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/credits/remaining', headers: user.auth });
  return res.json().imageCredits;
}

/** Posts a Dodo-format event signed with the sandbox's secret, as the provider would. */
export async function postWebhook(
  t: TestApp,
  type: string,
  data: Record<string, unknown>,
  options: { eventId?: string; secret?: string; headers?: Record<string, string> } = {},
) {
  const secret = options.secret ?? (await resolveSandboxWebhookSecret(undefined, t.config.dataDir));
  const body = JSON.stringify({ business_id: 'sandbox', type, timestamp: new Date().toISOString(), data });
  const eventId = options.eventId ?? `evt_${randomUUID()}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/payments',
    headers: {
      'content-type': 'application/json',
      ...signWebhook(secret, eventId, body),
      ...options.headers,
    },
    payload: body,
  });
  return { res, eventId, body };
}
