import { desc, eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type MailMessage, mailMessages, type NewMailMessage } from '../../db/tables/mail-messages.ts';

export async function insertMailMessage(db: DbExecutor, mail: NewMailMessage): Promise<MailMessage> {
  const [row] = await db.insert(mailMessages).values(mail).returning();
  if (!row) throw new Error('insert into mail_messages returned no row');
  return row;
}

export async function findMailMessage(db: DbExecutor, id: string): Promise<MailMessage | undefined> {
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id)).limit(1);
  return row;
}

export async function markMailSent(db: DbExecutor, id: string, transport: string): Promise<void> {
  await db
    .update(mailMessages)
    .set({
      status: 'sent',
      transport,
      sentAt: new Date(),
      error: null,
      attempts: sql`${mailMessages.attempts} + 1`,
    })
    .where(eq(mailMessages.id, id));
}

export async function markMailFailed(
  db: DbExecutor,
  id: string,
  transport: string,
  error: string,
): Promise<void> {
  await db
    .update(mailMessages)
    .set({ status: 'failed', transport, error, attempts: sql`${mailMessages.attempts} + 1` })
    .where(eq(mailMessages.id, id));
}

export async function listRecentMail(db: DbExecutor, limit: number): Promise<MailMessage[]> {
  return db.select().from(mailMessages).orderBy(desc(mailMessages.createdAt)).limit(limit);
}
