import { accountDeletionMessages } from '@altwise/contracts/auth';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/tables/users.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { deleteFilesOfOwnerLater } from '../files/deletion.ts';
import { forgetMailTo } from '../mail/deletion.ts';
import { verifyPassword } from './passwords.ts';
import { lockUser } from './queries.ts';
import { findUserById } from './repository.ts';
import type { SessionUserCache } from './session-users.ts';

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;

/**
 * Deleting an account (ADR 022). The password proves the owner is at the keyboard. Renewal of any
 * subscription stops first, through billing: if the provider refuses, nothing is deleted and the
 * person can try again. Then one transaction removes the user row, and with it (foreign keys, ON
 * DELETE CASCADE) the library, batches, studio jobs, credits, checkout sessions, subscriptions,
 * tokens and file records; payments stay with `user_id` null. The sessions end with the row: a
 * token whose user is gone gets 401. The stored files' bytes are deleted by `files.delete` jobs
 * committed in the same transaction, and the mails addressed to the person leave the outbox.
 */
export function createAccountDeletion(deps: {
  db: Database;
  queue: JobQueue;
  /** Stops renewal of the user's subscriptions with the payment provider (billing knows how). */
  cancelSubscriptions: (userId: string) => Promise<void>;
  /** This process's session cache forgets the user at once (ADR 039). */
  sessionUsers: Pick<SessionUserCache, 'forget'>;
  logger: FastifyBaseLogger;
}) {
  const { db, queue, logger } = deps;
  const m = accountDeletionMessages;

  return {
    async deleteAccount(userId: string, password: string): Promise<void> {
      const user = await findUserById(db, userId);
      if (!user) throw unauthorized();
      if (!user.passwordHash) throw badRequest(m.noPassword, [{ path: 'password', message: m.noPassword }]);
      if (!(await verifyPassword(password, user.passwordHash)))
        // 400, not 401: the session is fine, only the typed password is wrong.
        throw badRequest(m.wrongPassword, [{ path: 'password', message: m.wrongPassword }]);

      await deps.cancelSubscriptions(user.id);

      const files = await db.transaction(async (tx) => {
        // A second deletion of the same account at once waits here, then finds nothing to delete.
        if (!(await lockUser(tx, user.id, 'update'))) throw unauthorized();
        const count = await deleteFilesOfOwnerLater(tx, queue, user.id);
        await forgetMailTo(tx, user.email);
        await tx.delete(users).where(eq(users.id, user.id));
        return count;
      });
      deps.sessionUsers.forget(user.id);
      logger.info({ user: user.id, files }, 'account deleted');
    },
  };
}
