import type { BatchProgress } from '@altwise/contracts/generation';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { useActiveBatches } from '../api/active-batches.ts';
import { isFinished, useBatchProgress } from '../api/batch-progress.ts';
import { libraryQueryKey } from '../api/list-library-images.ts';

/** Completed and failed images both count as done ('X of N completed', X = completed + failed). */
export function batchCounts(progress: BatchProgress) {
  const done = Math.min(progress.completed + progress.failed, progress.total);
  const percent = progress.total === 0 ? 100 : Math.round((done / progress.total) * 100);
  return { done, percent };
}

/** While a batch runs, new rows are fetched at most this often (the end always refetches). */
const LIVE_REFRESH_MS = 3000;

function BatchRow({ batchId, onDismiss }: { batchId: string; onDismiss: (id: string) => void }) {
  const { progress, error } = useBatchProgress(batchId);
  const queryClient = useQueryClient();
  const lastRefresh = useRef(0);
  const completed = progress?.completed ?? 0;
  // Results land in the library one by one: show them as they come, without a refetch per image.
  useEffect(() => {
    if (completed === 0 || Date.now() - lastRefresh.current < LIVE_REFRESH_MS) return;
    lastRefresh.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: libraryQueryKey });
  }, [completed, queryClient]);
  if (!progress) {
    return error ? (
      <div className="flex items-start justify-between gap-2">
        <p className="text-sm text-red-800">Could not read the progress: {error.message}</p>
        <DismissButton onClick={() => onDismiss(batchId)} />
      </div>
    ) : (
      <p className="text-sm text-slate-700">Starting...</p>
    );
  }
  const { done, percent } = batchCounts(progress);
  const finished = isFinished(progress.status);
  // the product spec's words stay as the heading; the lines below say when it is done.
  const heading = `Processing ${progress.total} images...`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start justify-between gap-2">
        <p className="font-semibold text-slate-900">{heading}</p>
        {finished ? <DismissButton onClick={() => onDismiss(batchId)} /> : null}
      </div>
      <div
        role="progressbar"
        aria-label={`Alt text generation for ${progress.total} images`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-indigo-700 transition-[width] duration-300"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="flex justify-between text-sm text-slate-800">
        <span>
          {done} of {progress.total} completed
        </span>
        <span aria-hidden="true">{percent}%</span>
      </p>
      {finished && progress.failed > 0 ? (
        <p className="text-sm text-amber-900">
          {progress.failed} {progress.failed === 1 ? 'image' : 'images'} could not be processed; the{' '}
          {progress.failed === 1 ? 'credit was' : 'credits were'} refunded.
        </p>
      ) : null}
      {finished && progress.failed === 0 ? (
        <p className="text-sm text-green-800">Done: all alt texts were added to your library.</p>
      ) : null}
      {finished && progress.failed > 0 && progress.completed > 0 ? (
        <p className="text-sm text-green-800">Done: {progress.completed} added to your library.</p>
      ) : null}
    </div>
  );
}

function DismissButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label="Close progress"
      className="-m-1 rounded-md p-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
    >
      <CloseIcon />
    </button>
  );
}

/**
 * The bottom-right panel of the product spec §2 ('Processing N images...', a bar, 'X of N completed'). It follows
 * every batch that is still running (GET /images/batches) and the one the scrape or upload page just
 * started (router state), with its real progress; finished ones stay until closed.
 */
export function ProgressPanel({ startedBatchId }: { startedBatchId: string | null }) {
  const activeBatches = useActiveBatches();
  const [followed, setFollowed] = useState<string[]>(startedBatchId ? [startedBatchId] : []);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const running = (activeBatches.data ?? []).filter((batch) => !isFinished(batch.status)).map((b) => b.id);
    const wanted = startedBatchId ? [startedBatchId, ...running] : running;
    setFollowed((current) => {
      const missing = wanted.filter((id) => !current.includes(id));
      return missing.length > 0 ? [...current, ...missing] : current;
    });
  }, [activeBatches.data, startedBatchId]);

  const visible = followed.filter((id) => !dismissed.has(id));
  if (visible.length === 0) return null;
  return (
    <section
      aria-label="Alt text generation progress"
      className="fixed right-4 bottom-4 z-40 flex w-[min(22rem,calc(100%-2rem))] flex-col gap-4 rounded-xl border border-slate-300 bg-white p-4 shadow-xl"
    >
      {visible.map((id) => (
        <div key={id} role="status" aria-live="polite">
          <BatchRow
            batchId={id}
            onDismiss={(gone) => setDismissed((current) => new Set(current).add(gone))}
          />
        </div>
      ))}
    </section>
  );
}
