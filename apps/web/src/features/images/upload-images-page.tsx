import { MAX_UPLOAD_FILES } from '@altwise/contracts/generation';
import { TOAST_OVERSIZE_MS, UPLOAD_REDIRECT_DELAY_MS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { CloseIcon } from '../../components/ui/icons.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { isApiError, serverMessage } from '../../lib/api-error.ts';
import { readUserId } from '../../lib/auth-storage.ts';
import { creditsQueryKey, useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { isFinished, useBatchProgress } from './api/batch-progress.ts';
import { uploadAndGenerate } from './api/upload-and-generate.ts';
import { PromptField } from './scrape/prompt-field.tsx';
import { ImportCsvSection } from './upload/import-csv-section.tsx';
import { ProgressOverlay } from './upload/progress-overlay.tsx';
import { addFiles, isOversize, type SelectedFile } from './upload/selected-files.ts';

const m = messages.upload;

/** The share of the bar given to sending the files; the rest follows the batch's real progress. */
const UPLOAD_SHARE = 25;

type Run =
  | { phase: 'idle' }
  | { phase: 'uploading'; total: number; sent: number }
  | { phase: 'processing'; total: number; batchId: string; message: string }
  | { phase: 'done'; total: number; batchId: string; message: string };

const plural = (n: number) => `${n} ${n === 1 ? 'image' : 'images'}`;

function doneMessage(total: number, completed: number, failed: number): string {
  const base = `Alt text generated for ${completed} of ${plural(total)}.`;
  return failed > 0
    ? `${base} ${failed} could not be processed and ${failed === 1 ? 'its credit was' : 'their credits were'} refunded.`
    : base;
}

/**
 * /upload-images (the product spec §2): pick or drop images (≤ 5MB each), an optional prompt, then one upload
 * that starts a background batch. The overlay shows real progress: the bytes sent, then the
 * batch's images as they finish; at 100% the page goes to /images after UPLOAD_REDIRECT_DELAY_MS.
 */
export function UploadImagesPage() {
  usePageTitle('Upload images');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const credits = useRemainingCredits();
  const [files, setFiles] = useState<readonly SelectedFile[]>([]);
  const [prompt, setPrompt] = useState('');
  const [problem, setProblem] = useState<{ message: string; details?: string[] } | null>(null);
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const listId = useId();

  const batchId = run.phase === 'processing' || run.phase === 'done' ? run.batchId : null;
  const { progress, error: progressError } = useBatchProgress(batchId);

  // The batch's end: 100%, then /images; a batch where every image failed is a failure (all refunded).
  useEffect(() => {
    if (run.phase !== 'processing') return;
    if (progress && isFinished(progress.status)) {
      if (progress.status === 'failed') {
        setRun({ phase: 'idle' });
        setProblem({
          message: m.failed,
          details: progress.failures.map((failure) => failure.error),
        });
        return;
      }
      setRun({
        ...run,
        phase: 'done',
        message: doneMessage(progress.total, progress.completed, progress.failed),
      });
      return;
    }
    // The batch was accepted but cannot be followed from here (e.g. gone): the library follows it.
    if (
      isApiError(progressError) &&
      progressError.status >= 400 &&
      progressError.status < 500 &&
      progressError.status !== 429
    ) {
      navigate(routes.images, { state: { batchId: run.batchId, message: run.message } });
    }
  }, [run, progress, progressError, navigate]);

  useEffect(() => {
    if (run.phase !== 'done') return;
    const timer = setTimeout(
      () => navigate(routes.images, { state: { batchId: run.batchId, message: run.message } }),
      UPLOAD_REDIRECT_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [run, navigate]);

  const add = (incoming: Iterable<File>) => {
    setProblem(null);
    const result = addFiles(files, incoming);
    setFiles(result.files);
    if (result.oversize.length > 0) {
      notify.error(`${m.oversize}: ${result.oversize.join(', ')}`, {
        position: 'top-right',
        duration: TOAST_OVERSIZE_MS,
      });
    }
    if (result.notImages.length > 0) {
      notify.error(`Only image files can be uploaded: ${result.notImages.join(', ')}`, {
        position: 'top-right',
      });
    }
  };

  const remove = (key: string) => {
    setProblem(null);
    setFiles((current) => current.filter((entry) => entry.key !== key));
    inputRef.current?.focus();
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (run.phase === 'idle') add(Array.from(event.dataTransfer.files));
  };

  const onGenerate = async () => {
    setProblem(null);
    if (files.length === 0) return;
    if (files.some((entry) => isOversize(entry.file))) {
      setProblem({ message: m.oversizeRecheck });
      return;
    }
    const remaining = credits.data?.imageCredits;
    if (remaining === undefined || credits.isError) {
      setProblem({ message: messages.scrape.unknownCredits });
      return;
    }
    if (files.length > remaining) {
      setProblem({ message: messages.scrape.tooFewCredits(remaining) });
      return;
    }
    if (files.length > MAX_UPLOAD_FILES) {
      setProblem({ message: `At most ${MAX_UPLOAD_FILES} images can be uploaded at once.` });
      return;
    }

    const total = files.length;
    setRun({ phase: 'uploading', total, sent: 0 });
    try {
      const chatGptPrompt = prompt.trim();
      const batch = await uploadAndGenerate({
        files: files.map((entry) => entry.file),
        userId: readUserId(),
        chatGptPrompt: chatGptPrompt || undefined,
        onUploadProgress: (sent) =>
          setRun((current) => (current.phase === 'uploading' ? { ...current, sent } : current)),
      });
      setRun({ phase: 'processing', total: batch.total, batchId: batch.batchId, message: batch.message });
      setFiles([]);
    } catch (error) {
      setRun({ phase: 'idle' });
      setProblem({ message: serverMessage(error) ?? m.failed });
    } finally {
      void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    }
  };

  const overlay = overlayView(run, progress);
  const busy = run.phase !== 'idle';

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Upload Images</h1>
      <p className="mt-3 text-lg text-slate-700">
        Upload images of up to 5MB each and get alt text written for every one of them. Each image uses 1
        credit.
      </p>
      <p className="mt-2 text-slate-700">
        Remaining credits:{' '}
        <span className="font-semibold text-slate-900">
          {credits.isError ? 'Unavailable' : (credits.data?.imageCredits ?? 'Loading...')}
        </span>
      </p>

      <Card className="mt-8">
        <div className="flex flex-col gap-5">
          <div className="flex flex-col gap-2">
            <label htmlFor={inputId} className="text-sm font-medium text-slate-900">
              Choose images
            </label>
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              multiple
              accept="image/*"
              disabled={busy}
              aria-describedby={`${inputId}-hint`}
              onChange={(event) => {
                add(Array.from(event.target.files ?? []));
                event.target.value = '';
              }}
              className="rounded-md border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-700 file:px-3 file:py-2 file:font-semibold file:text-white"
            />
            <p id={`${inputId}-hint`} className="text-sm text-slate-700">
              JPEG, PNG, WebP, GIF, AVIF or SVG, up to 5MB each.
            </p>
          </div>

          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer-only shortcut; the labelled file input above does the same for keyboard and screen-reader users */}
          <div
            onDragEnter={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`rounded-xl border-2 border-dashed px-6 py-10 text-center ${
              dragging ? 'border-indigo-700 bg-indigo-50' : 'border-slate-400 bg-slate-50'
            }`}
          >
            <p className="font-medium text-slate-900">Drag and drop images here</p>
            <p className="mt-1 text-sm text-slate-700">or use “Choose images” above.</p>
          </div>

          <section aria-labelledby={listId}>
            <h2 id={listId} className="text-base font-semibold text-slate-900">
              Selected files ({files.length})
            </h2>
            {files.length === 0 ? (
              <p className="mt-2 text-sm text-slate-700">No files selected yet.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200">
                {files.map((entry) => (
                  <li key={entry.key} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                    <span className="break-all text-slate-900">{entry.file.name}</span>
                    <button
                      type="button"
                      onClick={() => remove(entry.key)}
                      disabled={busy}
                      aria-label={`Remove ${entry.file.name}`}
                      className="rounded p-2 text-slate-700 hover:bg-slate-100 hover:text-red-700"
                    >
                      <CloseIcon className="size-4" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <PromptField value={prompt} onChange={setPrompt} disabled={busy} />

          {problem ? (
            <MessageBanner type="error" onDismiss={() => setProblem(null)}>
              <p>{problem.message}</p>
              {problem.details && problem.details.length > 0 ? (
                <ul className="mt-1 list-disc pl-5">
                  {[...new Set(problem.details)].map((detail) => (
                    <li key={detail}>{detail}</li>
                  ))}
                </ul>
              ) : null}
            </MessageBanner>
          ) : null}

          <div>
            <Button onClick={onGenerate} disabled={files.length === 0 || busy}>
              Generate Alt Text
            </Button>
          </div>
          <p className="text-sm text-slate-700">
            Note: images are processed in the background and the results are added to your image library. Some
            images may fail if their format is unsupported or they are over 5MB.
          </p>
        </div>
      </Card>
      <ImportCsvSection prompt={prompt} disabled={busy} />
      {overlay ? <ProgressOverlay title="Processing Your Images" {...overlay} /> : null}
    </div>
  );
}

function overlayView(run: Run, progress: ReturnType<typeof useBatchProgress>['progress']) {
  if (run.phase === 'idle') return null;
  if (run.phase === 'uploading') {
    return {
      percent: run.sent * UPLOAD_SHARE,
      stage: `Uploading ${plural(run.total)}...`,
      count: `0 of ${plural(run.total)} processed`,
    };
  }
  const total = progress?.total ?? run.total;
  const processed = progress ? progress.completed + progress.failed : 0;
  if (run.phase === 'done') {
    return {
      percent: 100,
      stage: 'Done. Opening your library...',
      count: `${processed} of ${plural(total)} processed`,
    };
  }
  const share = total > 0 ? processed / total : 0;
  return {
    // 100% only once the batch says it is finished.
    percent: Math.min(99, UPLOAD_SHARE + share * (100 - UPLOAD_SHARE)),
    stage: 'Writing alt text...',
    count: `${processed} of ${plural(total)} processed`,
  };
}
