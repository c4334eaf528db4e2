import type { Database } from '../../db/client.ts';
import { discardPreview, makePreview, storePreview } from '../files/preview.ts';
import type { FilesService } from '../files/service.ts';
import { findAudit, landAuditPreview } from './repository.ts';

/** Keeps a preview of an audit image's bytes (ADR 051); never throws. */
export type AuditPreviewKeeper = (auditId: string, src: string, bytes: Uint8Array) => Promise<void>;

/**
 * The pixel check's preview keeper: the image the check fetched becomes a small WebP, stored as the
 * audit owner's file (so it goes with the account) and recorded on every image of that address in
 * the audit that has none yet. A preview no row took (a resumed run that already had one) is deleted.
 */
export function createAuditPreviewKeeper(deps: {
  db: Database;
  files: Pick<FilesService, 'saveFile' | 'deleteFile'>;
}): AuditPreviewKeeper {
  const { db, files } = deps;
  return async (auditId, src, bytes) => {
    try {
      const audit = await findAudit(db, auditId);
      if (!audit) return;
      const preview = await storePreview(files, audit.userId, makePreview(bytes));
      if (!preview) return;
      if (!(await landAuditPreview(db, auditId, src, preview))) await discardPreview(files, preview);
    } catch {
      // A missing preview shows as a placeholder; it never stops the audit.
    }
  };
}
