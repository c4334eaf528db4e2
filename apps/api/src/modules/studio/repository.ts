import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type StudioJob, type StudioJobKind, studioJobs } from '../../db/tables/studio-jobs.ts';

export async function insertStudioJob(
  db: DbExecutor,
  job: { userId: string; kind: StudioJobKind; reservationId: string; credits: number },
): Promise<StudioJob> {
  const [row] = await db.insert(studioJobs).values(job).returning();
  if (!row) throw new Error('insert into studio_jobs returned no row');
  return row;
}

/** Ends a running job; false when it had already ended (the recovery job got there first). */
export async function finishStudioJob(
  db: DbExecutor,
  id: string,
  outcome: { status: 'succeeded' } | { status: 'failed'; error: string },
): Promise<boolean> {
  const rows = await db
    .update(studioJobs)
    .set({
      status: outcome.status,
      error: outcome.status === 'failed' ? outcome.error : null,
      finishedAt: sql`now()`,
    })
    .where(and(eq(studioJobs.id, id), eq(studioJobs.status, 'running')))
    .returning({ id: studioJobs.id });
  return rows.length === 1;
}

/** Jobs still running although they started before `startedBefore`: their process is gone. */
export async function listAbandonedStudioJobs(
  db: DbExecutor,
  startedBefore: Date,
  limit: number,
): Promise<StudioJob[]> {
  return db
    .select()
    .from(studioJobs)
    .where(and(eq(studioJobs.status, 'running'), lt(studioJobs.createdAt, startedBefore)))
    .orderBy(studioJobs.createdAt)
    .limit(limit);
}
