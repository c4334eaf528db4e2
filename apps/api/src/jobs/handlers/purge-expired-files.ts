import type { FilesService } from '../../modules/files/service.ts';
import type { JobHandler } from '../queue.ts';

export function purgeExpiredFilesHandler(files: FilesService): JobHandler<'files.purge-expired'> {
  return async (job) => {
    await files.purgeExpiredFiles({ limit: job.data.limit ?? 500 });
  };
}
