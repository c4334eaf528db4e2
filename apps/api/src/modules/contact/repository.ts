import { eq } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import {
  type ContactMessage,
  contactMessages,
  type NewContactMessage,
} from '../../db/tables/contact-messages.ts';

export async function insertContactMessage(
  db: DbExecutor,
  message: NewContactMessage,
): Promise<ContactMessage> {
  const [row] = await db.insert(contactMessages).values(message).returning();
  if (!row) throw new Error('insert into contact_messages returned no row');
  return row;
}

export async function linkContactMail(db: DbExecutor, id: string, mailMessageId: string): Promise<void> {
  await db.update(contactMessages).set({ mailMessageId }).where(eq(contactMessages.id, id));
}
