import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import {
  type ChangeWrite,
  type ImportCursor,
  type IntegrationChangeRow,
  type IntegrationMediaRow,
  type IntegrationPlacementRow,
  type IntegrationPostRow,
  type IntegrationRow,
  integrationChanges,
  integrationMedia,
  integrationPlacements,
  integrationPosts,
  integrations,
} from '../../db/tables/integrations.ts';

export async function countIntegrationsOf(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(integrations).where(eq(integrations.userId, userId));
  return row?.n ?? 0;
}

export async function insertIntegration(
  db: DbExecutor,
  values: typeof integrations.$inferInsert,
): Promise<IntegrationRow> {
  const [row] = await db.insert(integrations).values(values).returning();
  if (!row) throw new Error('insert into integrations returned nothing');
  return row;
}

export async function findIntegrationOf(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.userId, userId)));
  return row;
}

export async function findIntegration(db: DbExecutor, id: string): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(integrations).where(eq(integrations.id, id));
  return row;
}

/** Locks the row for a state change (import or publish start). */
export async function lockIntegration(db: DbExecutor, id: string): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(integrations).where(eq(integrations.id, id)).for('update');
  return row;
}

export async function listIntegrationsOf(db: DbExecutor, userId: string): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(eq(integrations.userId, userId))
    .orderBy(desc(integrations.createdAt), desc(integrations.id));
}

export async function deleteIntegrationOf(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.userId, userId)))
    .returning({ id: integrations.id });
  return deleted.length > 0;
}

export async function updateIntegration(
  db: DbExecutor,
  id: string,
  values: Partial<
    Pick<
      IntegrationRow,
      | 'status'
      | 'error'
      | 'notice'
      | 'importCursor'
      | 'publishRequest'
      | 'failures'
      | 'mediaCount'
      | 'imported'
      | 'placements'
      | 'auditId'
      | 'lastImportAt'
      | 'progress'
    >
  >,
): Promise<void> {
  await db
    .update(integrations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(integrations.id, id));
}

/** A new import: the last one's media, posts and placements go (its changes stay, for Undo). */
export async function resetImport(db: DbExecutor, id: string, cursor: ImportCursor): Promise<void> {
  await db.delete(integrationMedia).where(eq(integrationMedia.integrationId, id));
  await db.delete(integrationPosts).where(eq(integrationPosts.integrationId, id));
  await updateIntegration(db, id, {
    status: 'importing',
    error: null,
    notice: null,
    failures: [],
    importCursor: cursor,
    mediaCount: null,
    imported: 0,
    placements: 0,
  });
}

/** Rows per INSERT: one statement for a whole page of 50,000 overflowed the stack (ADR 070). */
const UPSERT_CHUNK = 500;

/** The last row of each key: one INSERT … ON CONFLICT may not touch the same row twice. */
function lastOfEach<T>(rows: T[], key: (row: T) => number): T[] {
  return [...new Map(rows.map((row) => [key(row), row])).values()];
}

export async function upsertMedia(db: DbExecutor, rows: IntegrationMediaRow[]): Promise<void> {
  const unique = lastOfEach(rows, (row) => row.mediaId);
  for (let at = 0; at < unique.length; at += UPSERT_CHUNK)
    await upsertMediaChunk(db, unique.slice(at, at + UPSERT_CHUNK));
}

async function upsertMediaChunk(db: DbExecutor, rows: IntegrationMediaRow[]): Promise<void> {
  await db
    .insert(integrationMedia)
    .values(rows)
    .onConflictDoUpdate({
      target: [integrationMedia.integrationId, integrationMedia.mediaId],
      set: {
        sourceUrl: sql`excluded.source_url`,
        urls: sql`excluded.urls`,
        altText: sql`excluded.alt_text`,
        title: sql`excluded.title`,
        caption: sql`excluded.caption`,
        description: sql`excluded.description`,
      },
    });
}

export async function countMedia(db: DbExecutor, integrationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(integrationMedia)
    .where(eq(integrationMedia.integrationId, integrationId));
  return row?.n ?? 0;
}

export async function listMedia(db: DbExecutor, integrationId: string): Promise<IntegrationMediaRow[]> {
  return db
    .select()
    .from(integrationMedia)
    .where(eq(integrationMedia.integrationId, integrationId))
    .orderBy(asc(integrationMedia.mediaId));
}

export async function upsertPosts(db: DbExecutor, rows: IntegrationPostRow[]): Promise<void> {
  const unique = lastOfEach(rows, (row) => row.postId);
  for (let at = 0; at < unique.length; at += UPSERT_CHUNK)
    await upsertPostsChunk(db, unique.slice(at, at + UPSERT_CHUNK));
}

async function upsertPostsChunk(db: DbExecutor, rows: IntegrationPostRow[]): Promise<void> {
  await db
    .insert(integrationPosts)
    .values(rows)
    .onConflictDoUpdate({
      target: [integrationPosts.integrationId, integrationPosts.postId],
      set: {
        title: sql`excluded.title`,
        link: sql`excluded.link`,
        modified: sql`excluded.modified`,
        rendered: sql`excluded.rendered`,
        images: sql`excluded.images`,
      },
    });
}

export async function listPosts(db: DbExecutor, integrationId: string): Promise<IntegrationPostRow[]> {
  return db
    .select()
    .from(integrationPosts)
    .where(eq(integrationPosts.integrationId, integrationId))
    .orderBy(asc(integrationPosts.postType), asc(integrationPosts.postId));
}

export async function findPost(
  db: DbExecutor,
  integrationId: string,
  postId: number,
): Promise<IntegrationPostRow | undefined> {
  const [row] = await db
    .select()
    .from(integrationPosts)
    .where(and(eq(integrationPosts.integrationId, integrationId), eq(integrationPosts.postId, postId)));
  return row;
}

export async function setPostModified(
  db: DbExecutor,
  integrationId: string,
  postId: number,
  modified: string,
): Promise<void> {
  await db
    .update(integrationPosts)
    .set({ modified })
    .where(and(eq(integrationPosts.integrationId, integrationId), eq(integrationPosts.postId, postId)));
}

/** The import's placements, replaced as a whole (an import makes a new audit). */
export async function replacePlacements(
  db: DbExecutor,
  integrationId: string,
  rows: Omit<IntegrationPlacementRow, 'id'>[],
): Promise<void> {
  // Placements with changes stay: their changes keep what Undo needs.
  await db
    .delete(integrationPlacements)
    .where(
      and(
        eq(integrationPlacements.integrationId, integrationId),
        sql`not exists (select 1 from integration_changes c where c.placement_id = ${integrationPlacements.id})`,
      ),
    );
  for (let at = 0; at < rows.length; at += 500)
    await db
      .insert(integrationPlacements)
      .values(rows.slice(at, at + 500))
      .onConflictDoNothing();
}

export async function listPlacementsFor(
  db: DbExecutor,
  integrationId: string,
  auditImageIds: string[],
): Promise<IntegrationPlacementRow[]> {
  if (auditImageIds.length === 0) return [];
  return db
    .select()
    .from(integrationPlacements)
    .where(
      and(
        eq(integrationPlacements.integrationId, integrationId),
        inArray(integrationPlacements.auditImageId, auditImageIds),
      ),
    );
}

export async function findLiveChange(
  db: DbExecutor,
  placementId: string,
): Promise<IntegrationChangeRow | undefined> {
  const [row] = await db
    .select()
    .from(integrationChanges)
    .where(and(eq(integrationChanges.placementId, placementId), ne(integrationChanges.status, 'undone')));
  return row;
}

/** A change about to be written; null when a live one for the placement exists (it is not written twice). */
export async function insertPendingChange(
  db: DbExecutor,
  values: Omit<typeof integrationChanges.$inferInsert, 'status' | 'id'>,
): Promise<IntegrationChangeRow | null> {
  const [row] = await db
    .insert(integrationChanges)
    .values({ ...values, status: 'pending' })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** The origin and evidence of the words a live change is being rewritten to (ADR 069). */
export async function setChangeProvenance(
  db: DbExecutor,
  id: string,
  provenance: Pick<IntegrationChangeRow, 'origin' | 'reasons'>,
): Promise<void> {
  await db
    .update(integrationChanges)
    .set({ origin: provenance.origin, reasons: provenance.reasons })
    .where(eq(integrationChanges.id, id));
}

export async function markChangePublished(db: DbExecutor, id: string, after?: string): Promise<void> {
  await db
    .update(integrationChanges)
    .set({
      status: 'published',
      publishedAt: new Date(),
      writing: null,
      ...(after !== undefined ? { after } : {}),
    })
    .where(eq(integrationChanges.id, id));
}

export async function markChangeUndone(db: DbExecutor, id: string): Promise<void> {
  await db
    .update(integrationChanges)
    .set({ status: 'undone', undoneAt: new Date(), writing: null })
    .where(eq(integrationChanges.id, id));
}

/** Notes (or, with null, forgets) the write to a live change about to be made. */
export async function setChangeWriting(
  db: DbExecutor,
  ids: string[],
  writing: ChangeWrite[] | null,
): Promise<void> {
  for (const [at, id] of ids.entries())
    await db
      .update(integrationChanges)
      .set({ writing: writing ? (writing[at] ?? null) : null })
      .where(eq(integrationChanges.id, id));
}

export async function deleteChange(db: DbExecutor, id: string): Promise<void> {
  await db.delete(integrationChanges).where(eq(integrationChanges.id, id));
}

/** Changes that were about to be written (new, or a live one rewritten or undone) when a process stopped. */
export async function listPendingChanges(
  db: DbExecutor,
  integrationId: string,
): Promise<IntegrationChangeRow[]> {
  return db
    .select()
    .from(integrationChanges)
    .where(
      and(
        eq(integrationChanges.integrationId, integrationId),
        or(eq(integrationChanges.status, 'pending'), isNotNull(integrationChanges.writing)),
      ),
    );
}

export async function listChanges(
  db: DbExecutor,
  integrationId: string,
  ids?: string[],
): Promise<
  (IntegrationChangeRow & {
    postTitle: string | null;
    sourceUrl: string | null;
    auditImageId: string | null;
  })[]
> {
  const rows = await db
    .select({
      change: integrationChanges,
      postTitle: integrationPosts.title,
      sourceUrl: integrationMedia.sourceUrl,
      auditImageId: integrationPlacements.auditImageId,
    })
    .from(integrationChanges)
    .leftJoin(integrationPlacements, eq(integrationPlacements.id, integrationChanges.placementId))
    .leftJoin(
      integrationPosts,
      and(
        eq(integrationPosts.integrationId, integrationChanges.integrationId),
        eq(integrationPosts.postId, integrationChanges.postId),
      ),
    )
    .leftJoin(
      integrationMedia,
      and(
        eq(integrationMedia.integrationId, integrationChanges.integrationId),
        eq(integrationMedia.mediaId, integrationChanges.mediaId),
      ),
    )
    .where(
      and(
        eq(integrationChanges.integrationId, integrationId),
        ne(integrationChanges.status, 'pending'),
        ...(ids ? [inArray(integrationChanges.id, ids)] : []),
      ),
    )
    .orderBy(desc(integrationChanges.createdAt), asc(integrationChanges.id))
    .limit(1000);
  return rows.map((row) => ({
    ...row.change,
    postTitle: row.postTitle,
    sourceUrl: row.sourceUrl,
    auditImageId: row.auditImageId,
  }));
}

export async function findPlacement(
  db: DbExecutor,
  id: string,
): Promise<IntegrationPlacementRow | undefined> {
  const [row] = await db.select().from(integrationPlacements).where(eq(integrationPlacements.id, id));
  return row;
}

/** Imports and publishes under way: after a crash, the next process sends them to the queue again. */
export async function listUnfinishedRuns(
  db: DbExecutor,
): Promise<
  (Pick<IntegrationRow, 'id' | 'status' | 'publishRequest' | 'leaseUntil'> & { leaseLive: boolean })[]
> {
  return db
    .select({
      id: integrations.id,
      status: integrations.status,
      publishRequest: integrations.publishRequest,
      leaseUntil: integrations.leaseUntil,
      leaseLive: sql<boolean>`coalesce(${integrations.leaseUntil} > now(), false)`,
    })
    .from(integrations)
    .where(inArray(integrations.status, ['importing', 'publishing']));
}

const leaseEnd = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;

/**
 * Takes the site's lease for a run when nobody holds it or the holder's has expired (the database's
 * clock decides, the same for every process). The row as it is now, or undefined when another run
 * holds a live lease.
 */
export async function takeLease(
  db: DbExecutor,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .update(integrations)
    .set({ leaseOwner: owner, leaseUntil: leaseEnd(leaseMs) })
    .where(
      and(
        eq(integrations.id, id),
        or(isNull(integrations.leaseUntil), lt(integrations.leaseUntil, sql`now()`)),
      ),
    )
    .returning();
  return row;
}

/** Extends the lease if `owner` still holds it; false when it was lost (expired and taken, or released). */
export async function renewLease(
  db: DbExecutor,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await db
    .update(integrations)
    .set({ leaseUntil: leaseEnd(leaseMs) })
    .where(and(eq(integrations.id, id), eq(integrations.leaseOwner, owner)))
    .returning({ id: integrations.id });
  return rows.length > 0;
}

/** Until when someone holds the site's lease (null: nobody). */
export async function findLeaseUntil(db: DbExecutor, id: string): Promise<Date | null> {
  const [row] = await db
    .select({ leaseUntil: integrations.leaseUntil, live: sql<boolean>`${integrations.leaseUntil} > now()` })
    .from(integrations)
    .where(eq(integrations.id, id));
  return row?.live ? row.leaseUntil : null;
}

/** Ends a run: its last state written and the lease let go, only if `owner` still holds it. */
export async function finishLeasedRun(
  db: DbExecutor,
  id: string,
  owner: string,
  values: Parameters<typeof updateIntegration>[2],
): Promise<boolean> {
  const rows = await db
    .update(integrations)
    .set({ ...values, leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(integrations.id, id), eq(integrations.leaseOwner, owner)))
    .returning({ id: integrations.id });
  return rows.length > 0;
}

/** Lets the lease go without changing the run (a run that found nothing to do). */
export async function releaseLease(db: DbExecutor, id: string, owner: string): Promise<void> {
  await db
    .update(integrations)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(integrations.id, id), eq(integrations.leaseOwner, owner)));
}
