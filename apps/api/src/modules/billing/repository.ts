import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type CheckoutSession, checkoutSessions } from '../../db/tables/checkout-sessions.ts';
import { type Payment, payments } from '../../db/tables/payments.ts';
import { type Subscription, subscriptions } from '../../db/tables/subscriptions.ts';
import { webhookEvents } from '../../db/tables/webhook-events.ts';
import { isUuid } from '../../lib/ids.ts';

export async function insertCheckoutSession(
  db: DbExecutor,
  values: { userId: string; provider: string; productId: string; quantity: number },
): Promise<string> {
  const [row] = await db.insert(checkoutSessions).values(values).returning({ id: checkoutSessions.id });
  if (!row) throw new Error('insertCheckoutSession returned no row');
  return row.id;
}

/** With `lock`, the row stays locked until the transaction ends (its payments apply one at a time). */
export async function findCheckoutSession(
  db: DbExecutor,
  id: string,
  lock = false,
): Promise<CheckoutSession | null> {
  if (!isUuid(id)) return null;
  const query = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * Takes a pending (or failed) checkout for one payment attempt: a conditional update, so of any
 * number of concurrent attempts exactly one gets the row. Null when it is paid or being paid.
 */
export async function claimCheckoutSession(db: DbExecutor, id: string): Promise<CheckoutSession | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .update(checkoutSessions)
    .set({ status: 'paying', updatedAt: new Date() })
    .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, ['pending', 'failed'])))
    .returning();
  return row ?? null;
}

/** Gives a claimed checkout back after an attempt that charged nothing (a declined card). */
export async function releaseCheckoutSession(db: DbExecutor, id: string) {
  await db
    .update(checkoutSessions)
    .set({ status: 'pending', updatedAt: new Date() })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'paying')));
}

/** The succeeded payment of a checkout, if it has one (at most one: a unique index). */
export async function findCheckoutPayment(
  db: DbExecutor,
  checkoutSessionId: string,
): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.checkoutSessionId, checkoutSessionId), eq(payments.status, 'succeeded')))
    .limit(1);
  return row ?? null;
}

export async function setCheckoutSessionStatus(db: DbExecutor, id: string, status: 'completed' | 'failed') {
  await db
    .update(checkoutSessions)
    .set({ status, updatedAt: new Date() })
    // A completed checkout stays completed when a later attempt fails.
    .where(and(eq(checkoutSessions.id, id), sql`${checkoutSessions.status} <> 'completed'`));
}

/** False when this event was handled before (the row already exists). */
export async function insertWebhookEvent(
  db: DbExecutor,
  values: { provider: string; eventId: string; type: string },
): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values(values)
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return rows.length > 0;
}

export async function findPaymentByProviderId(
  db: DbExecutor,
  provider: string,
  providerPaymentId: string,
): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .limit(1);
  return row ?? null;
}

export async function countSucceededSubscriptionPayments(
  db: DbExecutor,
  provider: string,
  providerSubscriptionId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        eq(payments.providerSubscriptionId, providerSubscriptionId),
        eq(payments.status, 'succeeded'),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function upsertPayment(db: DbExecutor, values: typeof payments.$inferInsert) {
  await db
    .insert(payments)
    .values(values)
    .onConflictDoUpdate({
      target: [payments.provider, payments.providerPaymentId],
      set: { status: values.status, creditsAdded: values.creditsAdded, updatedAt: new Date() },
      // A late 'failed' never turns a paid payment (whose credits were granted) into a failed one.
      setWhere: sql`${payments.status} <> 'succeeded'`,
    });
}

export async function findUserPayment(
  db: DbExecutor,
  userId: string,
  providerPaymentId: string,
): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.providerPaymentId, providerPaymentId)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ?? null;
}

export async function countUserPayments(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(payments).where(eq(payments.userId, userId));
  return Number(row?.n ?? 0);
}

export function listUserPayments(db: DbExecutor, userId: string, limit: number, offset: number) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit)
    .offset(offset);
}

export async function findSubscriptionByProviderId(
  db: DbExecutor,
  provider: string,
  providerSubscriptionId: string,
  lock = false,
): Promise<Subscription | null> {
  const query = db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The newest plan row is the user's current plan. */
export async function findCurrentSubscription(db: DbExecutor, userId: string): Promise<Subscription | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .limit(1);
  return row ?? null;
}

export async function insertSubscription(db: DbExecutor, values: typeof subscriptions.$inferInsert) {
  await db.insert(subscriptions).values(values).onConflictDoNothing();
}

export async function updateSubscription(
  db: DbExecutor,
  id: string,
  patch: Partial<
    Pick<
      Subscription,
      'status' | 'currentPeriodStart' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'productId' | 'createdAt'
    >
  >,
) {
  await db
    .update(subscriptions)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(subscriptions.id, id));
}
