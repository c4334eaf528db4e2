import { and, arrayContains, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import {
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/tables/webhook-endpoints.ts';

export async function countEndpoints(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId));
  return row?.n ?? 0;
}

export async function insertEndpoint(
  db: DbExecutor,
  endpoint: { userId: string; url: string; events: string[]; secret: string },
) {
  const [row] = await db.insert(webhookEndpoints).values(endpoint).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export function listEndpoints(db: DbExecutor, userId: string) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function findEndpoint(db: DbExecutor, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row ?? null;
}

export async function deleteEndpoint(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length === 1;
}

/**
 * Replaces the endpoint's secret with `secret`, keeping the one it replaces as the previous secret
 * for `overlapMs` (one statement: the old value is read and moved where it is written). Null when
 * the endpoint is not the user's.
 */
export async function rotateEndpointSecret(
  db: DbExecutor,
  userId: string,
  id: string,
  secret: string,
  overlapMs: number,
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: sql`now() + make_interval(secs => ${overlapMs / 1000})`,
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row ?? null;
}

/** The endpoint's most recent deliveries, newest first. */
export function listDeliveries(db: DbExecutor, endpointId: string, limit: number) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(db: DbExecutor, endpointId: string, deliveryId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return row ?? null;
}

/** A delivery with the URL and the secrets it is signed with: the current one, then a previous one not yet expired. */
export async function findDeliveryToSend(db: DbExecutor, deliveryId: string) {
  const [row] = await db
    .select({
      delivery: webhookDeliveries,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      previousSecret: sql<
        string | null
      >`case when ${webhookEndpoints.previousSecretExpiresAt} > now() then ${webhookEndpoints.previousSecret} end`,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row ?? null;
}

/** The user's endpoints subscribed to `event`. */
export function findSubscribedEndpoints(db: DbExecutor, userId: string, event: string) {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), arrayContains(webhookEndpoints.events, [event])));
}

/** One delivery per endpoint, event and subject: rows that exist already are skipped. Returns the new ids. */
export async function insertDeliveries(
  db: DbExecutor,
  rows: { endpointId: string; event: string; subject: string; payload: unknown }[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing({
      target: [webhookDeliveries.endpointId, webhookDeliveries.event, webhookDeliveries.subject],
    })
    .returning({ id: webhookDeliveries.id });
  return inserted.map((row) => row.id);
}

/**
 * Records one attempt, only while the delivery is still at attempt `attempt` and pending (a
 * redelivery or a duplicate job changes nothing). Answers whether this call recorded it.
 */
export async function recordAttempt(
  db: DbExecutor,
  deliveryId: string,
  attempt: number,
  result: { status: WebhookDeliveryStatus; statusCode: number | null; error: string | null },
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: result.status,
      attempts: attempt + 1,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      lastAttemptAt: sql`now()`,
      ...(result.status === 'delivered' ? { deliveredAt: sql`now()` } : {}),
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.attempts, attempt),
        eq(webhookDeliveries.status, 'pending'),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length === 1;
}

/** A delivered or failed delivery goes back to pending; answers its attempt count, or null if pending. */
export async function reopenDelivery(db: DbExecutor, deliveryId: string): Promise<number | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending' })
    .where(and(eq(webhookDeliveries.id, deliveryId), sql`${webhookDeliveries.status} <> 'pending'`))
    .returning({ attempts: webhookDeliveries.attempts });
  return row?.attempts ?? null;
}
