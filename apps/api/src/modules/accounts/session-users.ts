import type { FastifyBaseLogger } from 'fastify';
import type { Listen } from '../../db/client.ts';
import { setBounded } from '../../lib/bounded-map.ts';

/** What authenticating a session needs of its user: the row exists, and its session version. */
export type SessionUserRecord = { id: string; email: string; sessionVersion: number };

/** The channel the `users` triggers notify (migration 0019) with the id of a changed or deleted user. */
export const SESSION_USERS_CHANNEL = 'altwise_session_users';

export type SessionUserCache = ReturnType<typeof createSessionUserCache>;

/**
 * The users that sessions were recently authenticated for (ADR 039), so a request with a session
 * token usually reads nothing from the database. Revocation stays immediate:
 * - a trigger on `users` notifies SESSION_USERS_CHANNEL when a user's session version or email
 *   changes or the row is deleted, from any process; the entry is dropped when that arrives;
 * - this process's own changes drop the entry at once (`forget`), not waiting for the notification;
 * - a read that began before a change must not store what it read after the change was handled:
 *   every change handled bumps `changes`, and a read stores its result only if it saw none;
 * - the cache is used only while the listener is connected; losing it clears the cache, and every
 *   request reads the database until the listener is back;
 * - entries live at most `ttlMs` and there are at most `maxEntries` (the oldest goes first).
 */
export function createSessionUserCache(options: {
  /** The database's LISTEN; without it the cache is never used. */
  listen?: Listen;
  logger: FastifyBaseLogger;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const { listen, logger, ttlMs = 30_000, maxEntries = 10_000 } = options;
  const entries = new Map<string, { user: SessionUserRecord; storedAt: number }>();
  let listening = false;
  /** Changes handled so far (notifications, own changes, listener state). */
  let changes = 0;

  function forget(userId: string) {
    entries.delete(userId);
    changes += 1;
  }

  return {
    /** Starts listening; resolves once the first attempt to connect has ended, either way. */
    async start(): Promise<void> {
      if (!listen) return;
      await listen(SESSION_USERS_CHANNEL, forget, (state, error) => {
        const was = listening;
        listening = state === 'connected';
        entries.clear();
        changes += 1;
        if (listening && !was) logger.info('session cache on: listening for session changes');
        else if (!listening && error)
          logger.warn({ err: error }, 'session cache off until the listener (re)connects');
        else if (!listening && was) logger.debug('session cache off: the listener stopped');
      });
    },

    /** Drops what is known of this user (after this process changed its password, email or row). */
    forget,

    /** The user (cached while listening), or undefined when it no longer exists. */
    async find(
      userId: string,
      read: (userId: string) => Promise<SessionUserRecord | undefined>,
    ): Promise<SessionUserRecord | undefined> {
      if (listening) {
        const entry = entries.get(userId);
        if (entry && Date.now() - entry.storedAt < ttlMs) return entry.user;
        if (entry) entries.delete(userId);
      }
      const seen = changes;
      const user = await read(userId);
      if (user && listening && changes === seen)
        setBounded(entries, userId, { user, storedAt: Date.now() }, maxEntries);
      return user;
    },

    /** For tests and health: whether entries are being kept right now. */
    get active() {
      return listening;
    },
  };
}
