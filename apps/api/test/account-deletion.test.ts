import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { accountDeletionMessages } from '@altwise/contracts/auth';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { generationItems } from '../src/db/tables/generation-items.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { payments } from '../src/db/tables/payments.ts';
import { storedFiles } from '../src/db/tables/stored-files.ts';
import { subscriptions } from '../src/db/tables/subscriptions.ts';
import { users } from '../src/db/tables/users.ts';
import { EngineProviderError } from '../src/engines/errors.ts';
import { hashPassword } from '../src/modules/accounts/passwords.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, multipartBody, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

const fixture = (name: string) => readFile(path.resolve(import.meta.dirname, 'fixtures/images', name));
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    env: { GENERATION_RETRY_DELAY_MS: '10' },
    // An image named broken.jpg is refused by the engine for good (not retryable).
    engine: createTestEngine({
      failWith: (_bytes, describe) =>
        describe.context?.fileName === 'broken.jpg'
          ? new EngineProviderError('The engine cannot read this image.', { retryable: false })
          : undefined,
    }),
  });
});
afterAll(() => t.cleanup());

const db = () => t.app.deps.database.db;

/** A confirmed account with a password and credits. */
async function createAccount(credits = 10): Promise<TestUser> {
  const user = await createUser(t, credits);
  await db()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return user;
}

async function uploadAndWait(user: TestUser, names: string[]) {
  const body = multipartBody(
    await Promise.all(
      names.map(async (name) => ({
        name: 'images',
        fileName: name,
        contentType: 'image/jpeg',
        bytes: await fixture(name === 'broken.jpg' ? 'rocket.jpg' : name),
      })),
    ),
  );
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/images/upload-and-generate',
    payload: body.payload,
    headers: { ...user.auth, ...body.headers },
  });
  expect(response.statusCode, response.body).toBe(202);
  const batchId: string = response.json().batchId;
  await waitForBatch(t, user.auth, batchId);
  return db().select().from(generationItems).where(eq(generationItems.batchId, batchId));
}

const getFile = (key: string) => t.app.inject({ method: 'GET', url: `/files/${key}` });
const deleteAccount = (user: TestUser | null, payload?: unknown) =>
  t.app.inject({
    method: 'DELETE',
    url: '/api/v1/users/me',
    headers: user ? user.auth : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const profileStatus = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: user.auth })).statusCode;
const count = async (table: string, where: ReturnType<typeof sql>) =>
  (
    await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
    )
  )[0]?.n;

describe('a failed upload', () => {
  it('stops being served when its image fails for good, and the purge job deletes its bytes', async () => {
    const user = await createAccount();
    const items = await uploadAndWait(user, ['astronaut.jpg', 'broken.jpg']);
    const failed = items.find((item) => item.status === 'failed');
    const done = items.find((item) => item.status === 'done');
    expect(failed?.fileKey).toBeTruthy();
    expect(done?.fileKey).toBeTruthy();
    const failedKey = failed?.fileKey as string;

    expect((await getFile(failedKey)).statusCode).toBe(404);
    expect((await getFile(done?.fileKey as string)).statusCode).toBe(200);

    await t.app.deps.files.purgeExpiredFiles();
    expect(await t.app.deps.storage.exists(failedKey)).toBe(false);
    expect(await t.app.deps.files.findFile(failedKey)).toBeUndefined();
    // The kept image's file is untouched.
    expect(await t.app.deps.storage.exists(done?.fileKey as string)).toBe(true);
  });
});

describe('DELETE /api/v1/users/me', () => {
  it('answers 401 without a token, whatever the body', async () => {
    for (const payload of [undefined, { password: PASSWORD }, { password: 42 }, { nope: true }]) {
      const response = await deleteAccount(null, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    }
  });

  it('refuses a wrong or missing password with 400 and deletes nothing', async () => {
    const user = await createAccount();
    const [item] = await uploadAndWait(user, ['astronaut.jpg']);
    for (const payload of [{ password: 'wrong password' }, {}, { password: '' }]) {
      const response = await deleteAccount(user, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json();
      expect(body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      expect(body.errors?.[0]?.path).toBe('password');
    }
    expect((await deleteAccount(user, { password: 'wrong password' })).json().message).toBe(
      accountDeletionMessages.wrongPassword,
    );
    expect(await profileStatus(user)).toBe(200);
    expect((await getFile(item?.fileKey as string)).statusCode).toBe(200);
    expect(await count('library_images', sql`user_id = ${user.id}`)).toBe(1);
  });

  it('refuses an account without a password (Google only) and deletes nothing', async () => {
    const user = await createUser(t, 1);
    const response = await deleteAccount(user, { password: 'anything' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(accountDeletionMessages.noPassword);
    expect(await profileStatus(user)).toBe(200);
  });

  it('deletes the account and everything in it at once, keeps payments without the person', async () => {
    const user = await createAccount(10);
    const neighbour = await createAccount(10);
    const items = await uploadAndWait(user, ['astronaut.jpg', 'horse.webp']);
    const [neighbourItem] = await uploadAndWait(neighbour, ['coffee.jpg']);
    const keys = items.map((item) => item.fileKey as string);
    const edited = await t.app.deps.files.saveFile({
      body: await fixture('rocket.jpg'),
      contentType: 'image/jpeg',
      folder: 'edited',
      ownerId: user.id,
    });
    keys.push(edited.key);
    for (const key of keys) expect((await getFile(key)).statusCode).toBe(200);
    await db().insert(payments).values({
      userId: user.id,
      provider: 'sandbox',
      providerPaymentId: 'pay_kept',
      productId: 'credit-pack',
      title: '50 credits',
      status: 'succeeded',
      amountCents: 900,
      creditsAdded: 50,
    });
    await db()
      .insert(subscriptions)
      .values({
        userId: user.id,
        provider: 'sandbox',
        providerSubscriptionId: 'sub_open',
        productId: 'starter-monthly',
        status: 'active',
        currentPeriodEnd: new Date(Date.now() + 86_400_000),
      });

    const apiKey = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: user.auth,
      payload: { name: 'CMS' },
    });
    expect(apiKey.statusCode).toBe(201);

    const response = await deleteAccount(user, { password: PASSWORD });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    // The old token no longer works, for reading or for deleting again.
    expect(await profileStatus(user)).toBe(401);
    expect((await deleteAccount(user, { password: PASSWORD })).statusCode).toBe(401);
    // Files answer 404 at once; the files.delete job removes their bytes.
    for (const key of keys) expect((await getFile(key)).statusCode, key).toBe(404);
    await waitFor(async () => {
      for (const key of keys) if (await t.app.deps.storage.exists(key)) return false;
      return true;
    });
    // Images, batches, files, subscriptions and the account are gone.
    expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await db().select().from(libraryImages).where(eq(libraryImages.userId, user.id))).toEqual([]);
    expect(await db().select().from(generationBatches).where(eq(generationBatches.userId, user.id))).toEqual(
      [],
    );
    expect(await db().select().from(storedFiles).where(eq(storedFiles.ownerId, user.id))).toEqual([]);
    expect(await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toEqual([]);
    expect(await count('credit_ledger', sql`user_id = ${user.id}`)).toBe(0);
    // API keys go with the account (ADR 028): the key stops working.
    expect(await count('api_keys', sql`user_id = ${user.id}`)).toBe(0);
    const withKey = { authorization: `Bearer ${apiKey.json().key}` };
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: withKey })).statusCode,
    ).toBe(401);
    expect(await count('mail_messages', sql`lower("to") = lower(${user.email})`)).toBe(0);
    // The payment stays, without the person.
    const [kept] = await db().select().from(payments).where(eq(payments.providerPaymentId, 'pay_kept'));
    expect(kept).toMatchObject({
      userId: null,
      amountCents: 900,
      productId: 'credit-pack',
      status: 'succeeded',
    });
    expect(kept?.createdAt).toBeInstanceOf(Date);

    // The neighbour keeps everything.
    expect(await profileStatus(neighbour)).toBe(200);
    expect((await getFile(neighbourItem?.fileKey as string)).statusCode).toBe(200);
    expect(await count('library_images', sql`user_id = ${neighbour.id}`)).toBe(1);
  });
});
