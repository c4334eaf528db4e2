import { eq } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type Audit, audits } from '../../db/tables/audits.ts';

/**
 * What other modules may read of an audit, by name (ADR 079): the audit module owns the audit
 * tables, and these reads are the only way in from outside it. Nothing here writes.
 */

/** One audit's row, whoever owns it (the caller has the id from its own records). */
export async function findAuditRow(db: DbExecutor, auditId: string): Promise<Audit | null> {
  const [audit] = await db.select().from(audits).where(eq(audits.id, auditId));
  return audit ?? null;
}
