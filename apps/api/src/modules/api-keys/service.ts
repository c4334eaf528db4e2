import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKeyRecord,
  type CreatedApiKey,
  MAX_API_KEYS,
} from '@altwise/contracts/api-keys';
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type ApiKey, apiKeys, apiKeyUsage } from '../../db/tables/api-keys.ts';
import { users } from '../../db/tables/users.ts';
import { conflict, notFound } from '../../errors.ts';
import { lockUser } from '../accounts/queries.ts';
import type { AuthUser } from '../accounts/service.ts';

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/** Who a valid key belongs to, and which key it is (for the rate limit). */
export type ApiKeyCaller = { user: AuthUser; keyId: string };

/** The outcome of counting one request against a key's per-minute limit. */
export type ApiKeyUse = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** `ak_` + 32 random bytes in base64url (43 characters). */
const keyShape = /^ak_[A-Za-z0-9_-]{43}$/;
/** `ak_` and the first 8 characters of the random part (48 bits): looked up, then the hash decides. */
const PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

const sha256 = (key: string) => createHash('sha256').update(key).digest();

const toRecord = (row: ApiKey): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** Tells an API key from a session token (a JWT never starts with `ak_`). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/**
 * API keys (ADR 028): created with a name and shown once, listed by prefix, revoked. The key is
 * random enough that a plain SHA-256 stands in for a password hash; the look-up goes by prefix and
 * the hash is compared in constant time. Every use is counted in `api_key_usage` (a fixed window
 * per key and minute, shared by every API process), which also moves `last_used_at` at most once a
 * minute: on a window's first request.
 */
export function createApiKeysService(deps: { db: Database; rateLimitPerMinute: number }) {
  const { db, rateLimitPerMinute } = deps;

  return {
    async create(userId: string, name: string): Promise<CreatedApiKey> {
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const prefix = key.slice(0, PREFIX_LENGTH);
      const row = await db.transaction(async (tx) => {
        // The user's row serialises concurrent creations, so the limit holds under a burst.
        await lockUser(tx, userId);
        const [active] = await tx
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
        if ((active?.n ?? 0) >= MAX_API_KEYS)
          throw conflict(
            `An account can have at most ${MAX_API_KEYS} API keys. Revoke one you no longer use to create another.`,
          );
        const [inserted] = await tx
          .insert(apiKeys)
          .values({ userId, name, prefix, keyHash: sha256(key).toString('hex') })
          .returning();
        return inserted as ApiKey;
      });
      return { id: row.id, name: row.name, prefix: row.prefix, key, createdAt: row.createdAt.toISOString() };
    },

    /** The caller's active keys, newest first; never the key itself. */
    async list(userId: string): Promise<ApiKeyRecord[]> {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
      return rows.map(toRecord);
    },

    /** Revokes one of the caller's keys; another user's, an unknown or a revoked key is 404. */
    async revoke(userId: string, id: string): Promise<void> {
      const revoked = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (revoked.length === 0) throw notFound('There is no such API key.');
    },

    /** The owner of an active key; null for a malformed, unknown or revoked one. */
    async authenticate(key: string): Promise<ApiKeyCaller | null> {
      if (!keyShape.test(key)) return null;
      const hash = sha256(key);
      const candidates = await db
        .select({ id: apiKeys.id, keyHash: apiKeys.keyHash, userId: users.id, email: users.email })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(and(eq(apiKeys.prefix, key.slice(0, PREFIX_LENGTH)), isNull(apiKeys.revokedAt)));
      const match = candidates.find((row) => timingSafeEqual(Buffer.from(row.keyHash, 'hex'), hash));
      return match ? { user: { id: match.userId, email: match.email }, keyId: match.id } : null;
    },

    /**
     * Counts one request against the key's limit for the current minute. The first request of a
     * minute also records the key's last use and drops its older windows.
     */
    async use(keyId: string): Promise<ApiKeyUse> {
      const window = sql`date_trunc('minute', now())`;
      const [counted] = await db
        .insert(apiKeyUsage)
        .values({ keyId, windowStart: window, requests: 1 })
        .onConflictDoUpdate({
          target: [apiKeyUsage.keyId, apiKeyUsage.windowStart],
          set: { requests: sql`${apiKeyUsage.requests} + 1` },
        })
        .returning({
          requests: apiKeyUsage.requests,
          secondsLeft: sql<number>`extract(epoch from (${apiKeyUsage.windowStart} + interval '1 minute' - now()))::float8`,
        });
      if (!counted) return { allowed: true };
      if (counted.requests === 1) {
        await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, keyId));
        await db
          .delete(apiKeyUsage)
          .where(and(eq(apiKeyUsage.keyId, keyId), lt(apiKeyUsage.windowStart, window)));
      }
      if (counted.requests <= rateLimitPerMinute) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(counted.secondsLeft))) };
    },
  };
}
