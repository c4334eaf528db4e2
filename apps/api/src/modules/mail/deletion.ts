import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { mailMessages } from '../../db/tables/mail-messages.ts';

/**
 * Mail addressed to a person leaves the outbox with their account (ADR 022), in the caller's
 * transaction: the mail module owns the outbox (ADR 079), the account deletion only asks.
 */
export async function forgetMailTo(db: DbExecutor, email: string): Promise<number> {
  const rows = await db
    .delete(mailMessages)
    .where(sql`lower(${mailMessages.to}) = lower(${email})`)
    .returning({ id: mailMessages.id });
  return rows.length;
}
