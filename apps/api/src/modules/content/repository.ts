import { desc, eq } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import {
  type ContentHistoryEntry,
  contentHistory,
  type NewContentHistoryEntry,
} from '../../db/tables/content-history.ts';

export async function insertContentHistory(
  db: DbExecutor,
  entry: NewContentHistoryEntry,
): Promise<ContentHistoryEntry> {
  const [row] = await db.insert(contentHistory).values(entry).returning();
  if (!row) throw new Error('insert into content_history returned no row');
  return row;
}

/** The user's entries, newest first. */
export async function listContentHistory(
  db: DbExecutor,
  userId: string,
  limit: number,
): Promise<Pick<ContentHistoryEntry, 'content' | 'createdAt'>[]> {
  return db
    .select({ content: contentHistory.content, createdAt: contentHistory.createdAt })
    .from(contentHistory)
    .where(eq(contentHistory.userId, userId))
    .orderBy(desc(contentHistory.createdAt), desc(contentHistory.id))
    .limit(limit);
}
