import { type BatchProgress, type BatchStatus, batchProgressSchema } from '@altwise/contracts/generation';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';
import { readEventStream } from '../../../lib/event-stream.ts';
import { activeBatchesQueryKey } from './active-batches.ts';
import { libraryQueryKey } from './list-library-images.ts';

/** How often the fallback polls GET /images/batches/{id} when the event stream is not available. */
export const BATCH_POLL_MS = 1000;

export function isFinished(status: BatchStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** GET /images/batches/{id}: one reading of a batch's progress. */
export function getBatchProgress(batchId: string, signal?: AbortSignal) {
  return api.get(`/images/batches/${encodeURIComponent(batchId)}`, { schema: batchProgressSchema, signal });
}

/**
 * Follows GET /images/batches/{id}/events (server-sent events, event `progress`): calls `onProgress`
 * for each event and resolves with the last progress when the stream ends; throws when it cannot be
 * opened.
 */
async function followEventStream(
  batchId: string,
  signal: AbortSignal,
  onProgress: (progress: BatchProgress) => void,
): Promise<BatchProgress | undefined> {
  let last: BatchProgress | undefined;
  await readEventStream(
    `/images/batches/${encodeURIComponent(batchId)}/events`,
    'progress',
    signal,
    (data) => {
      const parsed = batchProgressSchema.safeParse(data);
      if (!parsed.success) return false;
      last = parsed.data;
      onProgress(last);
      return isFinished(last.status);
    },
  );
  return last;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows one generation batch until it finishes: the event stream first, polling every second when
 * the stream fails or ends early. When the batch is done the library, the balance (failed images are
 * refunded) and the active-batch list are refetched. `batchId` null follows nothing.
 */
export function useBatchProgress(batchId: string | null): {
  progress: BatchProgress | undefined;
  error: Error | null;
} {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ id: string | null; progress?: BatchProgress; error: Error | null }>({
    id: batchId,
    error: null,
  });

  useEffect(() => {
    setState({ id: batchId, error: null });
    if (!batchId) return;
    const controller = new AbortController();
    const { signal } = controller;
    const update = (progress: BatchProgress) => setState({ id: batchId, progress, error: null });
    const finish = () => {
      void queryClient.invalidateQueries({ queryKey: libraryQueryKey });
      void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
      void queryClient.invalidateQueries({ queryKey: activeBatchesQueryKey });
    };

    void (async () => {
      let last: BatchProgress | undefined;
      try {
        last = await followEventStream(batchId, signal, update);
      } catch {
        if (signal.aborted) return;
        // Fall through to polling: a proxy may not pass the stream, or it was cut.
      }
      while (!signal.aborted && !(last && isFinished(last.status))) {
        try {
          last = await getBatchProgress(batchId, signal);
          update(last);
        } catch (error) {
          if (signal.aborted) return;
          const failure = error instanceof Error ? error : new Error(String(error));
          setState((current) => ({ ...current, id: batchId, error: failure }));
          // A batch that is not ours or does not exist will not appear by waiting.
          if (
            error instanceof ApiError &&
            error.status >= 400 &&
            error.status < 500 &&
            error.status !== 429
          ) {
            return;
          }
        }
        if (last && isFinished(last.status)) break;
        await sleep(BATCH_POLL_MS, signal);
      }
      if (!signal.aborted) finish();
    })();

    return () => controller.abort();
  }, [batchId, queryClient]);

  if (state.id !== batchId) return { progress: undefined, error: null };
  return { progress: state.progress, error: state.error };
}
