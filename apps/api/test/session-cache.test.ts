import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { users } from '../src/db/tables/users.ts';
import { hashPassword } from '../src/modules/accounts/passwords.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp, waitFor } from './helper.ts';

/**
 * ADR 039: a session's user is cached per process, and a change made anywhere (another process,
 * plain SQL) still ends the session within the time a notification takes. Runs on PGlite and, with
 * TEST_DATABASE_URL, on Postgres, where two app processes share one database.
 */
const REVOKED_WITHIN_MS = 2_000;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.cleanup());

const credits = (app: TestApp, user: Pick<TestUser, 'auth'>) =>
  app.app.inject({ method: 'GET', url: '/api/v1/credits/remaining', headers: user.auth });

/** Polls until the token is refused; fails after REVOKED_WITHIN_MS. */
const refusedSoon = (app: TestApp, user: Pick<TestUser, 'auth'>) =>
  waitFor(async () => (await credits(app, user)).statusCode === 401, REVOKED_WITHIN_MS, 20);

describe('cached sessions', () => {
  it('listens for session changes, so the cache is on', () => {
    expect(t.app.deps.sessionUsers.active).toBe(true);
  });

  it('ends a cached session when its session version is bumped in SQL, as another process would', async () => {
    const user = await createUser(t);
    expect((await credits(t, user)).statusCode).toBe(200);
    expect((await credits(t, user)).statusCode).toBe(200);
    await queryRows(
      t.app.deps.database.db,
      sql`update users set session_version = session_version + 1 where id = ${user.id}`,
    );
    await refusedSoon(t, user);
    const response = await credits(t, user);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('ends a cached session when its user row is deleted in SQL', async () => {
    const user = await createUser(t);
    expect((await credits(t, user)).statusCode).toBe(200);
    await queryRows(t.app.deps.database.db, sql`delete from users where id = ${user.id}`);
    await refusedSoon(t, user);
  });

  it('keeps a cached session through changes that do not touch sessions', async () => {
    const user = await createUser(t);
    expect((await credits(t, user)).statusCode).toBe(200);
    await queryRows(t.app.deps.database.db, sql`update users set first_name = 'Grace' where id = ${user.id}`);
    expect((await credits(t, user)).statusCode).toBe(200);
  });
});

// Two processes share a database only on Postgres (an embedded PGlite belongs to one process), so
// this block exists in the Postgres API suite, which `npm test` runs after the PGlite one.
if (process.env.TEST_DATABASE_URL)
  describe('two API processes on one Postgres database', () => {
    let shared: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      shared = await createPostgresDatabase(process.env.TEST_DATABASE_URL ?? '');
      const env = { DATABASE_URL: shared.url, JWT_SECRET: 'j'.repeat(40) };
      a = await buildTestApp({ env });
      b = await buildTestApp({ env });
    });
    afterAll(async () => {
      await a?.cleanup();
      await b?.cleanup();
      await shared?.drop();
    });

    async function userWithPassword(password: string) {
      const user = await createUser(a);
      await a.app.deps.database.db
        .update(users)
        .set({ passwordHash: await hashPassword(password) })
        .where(sql`${users.id} = ${user.id}`);
      return user;
    }

    it('ends on B a session cached there when the password is changed through A', async () => {
      const user = await userWithPassword('old-password-1');
      expect((await credits(b, user)).statusCode).toBe(200);
      expect(b.app.deps.sessionUsers.active).toBe(true);
      const changed = await a.app.inject({
        method: 'PUT',
        url: '/api/v1/users/change-password',
        headers: user.auth,
        payload: { currentPassword: 'old-password-1', newPassword: 'new-password-2' },
      });
      expect(changed.statusCode).toBe(200);
      expect((await credits(a, user)).statusCode).toBe(401);
      await refusedSoon(b, user);
      const fresh = { auth: { authorization: `Bearer ${changed.json().token}` } };
      expect((await credits(b, fresh)).statusCode).toBe(200);
    });

    it('reads the database while its listener is gone, and caches again once it is back', async () => {
      const user = await userWithPassword('old-password-1');
      expect((await credits(b, user)).statusCode).toBe(200);
      // Both processes' listening connections are cut, as a restart of Postgres or a network drop would.
      await queryRows(
        a.app.deps.database.db,
        sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'altwise-api-listen' and datname = current_database()`,
      );
      await waitFor(async () => !b.app.deps.sessionUsers.active, REVOKED_WITHIN_MS, 10);
      // B hears nothing of this change (or is just back, with an empty cache), yet refuses the old
      // token at once: it reads the row.
      await queryRows(
        a.app.deps.database.db,
        sql`update users set session_version = session_version + 1 where id = ${user.id}`,
      );
      expect((await credits(b, user)).statusCode).toBe(401);
      await waitFor(async () => b.app.deps.sessionUsers.active, 10_000, 50);
      const again = await createUser(a);
      expect((await credits(b, again)).statusCode).toBe(200);
      await queryRows(a.app.deps.database.db, sql`delete from users where id = ${again.id}`);
      await refusedSoon(b, again);
    });
  });

describe('a database failure while authenticating', () => {
  it('answers 500 with the request id, not 401: the caller is not signed out by an outage', async () => {
    const own = await buildTestApp();
    try {
      const user = await createUser(own);
      await own.app.deps.database.close();
      const response = await credits(own, user);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
    } finally {
      await own.cleanup();
    }
  });
});
