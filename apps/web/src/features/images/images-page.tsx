import { DEFAULT_LIBRARY_PAGE_SIZE, LIBRARY_PAGE_SIZES, TOAST_COPY_MS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage, serverMessage } from '../../lib/api-error.ts';
import { readUserId } from '../../lib/auth-storage.ts';
import { copyText } from '../../lib/copy-text.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useApproveAltText } from './api/approve-alt-text.ts';
import { useDeleteLibraryImages } from './api/delete-library-images.ts';
import { downloadImagesWithAlt } from './api/download-with-alt.ts';
import { listAllLibraryImages, useLibraryPage } from './api/list-library-images.ts';
import {
  altTextApproved,
  altTextApproveFailed,
  EditAltTextDialog,
  type EditTarget,
} from './library/edit-alt-text-dialog.tsx';
import { type LibraryRow, LibraryTable } from './library/library-table.tsx';
import { ProgressPanel } from './library/progress-panel.tsx';
import { RegenerateDialog } from './library/regenerate-dialog.tsx';

export const exportFailed = 'Failed to export images. Please try again.';
export const nothingToExport = 'There are no images to export.';
export const noneNeedReview = 'No images need review.';

/** What the scraped-images and upload pages pass when they send the person here after starting a batch. */
type LibraryLocationState = { batchId?: unknown; message?: unknown } | null;

function readLocationState(state: unknown) {
  const value = (state ?? null) as LibraryLocationState;
  return {
    batchId: typeof value?.batchId === 'string' ? value.batchId : null,
    message: typeof value?.message === 'string' ? value.message : null,
  };
}

/**
 * The image library (the product spec §2 Images library, §4, §8, §9). The server pages the list (`?page=&pageSize=`)
 * so it stays fast at 100,000 images; hence the Previous / Next pager next to 'Items per page', which
 * the product spec does not show. The selection is kept across pages (a set of ids, with each row for the export).
 */
export function ImagesPage() {
  usePageTitle('Images');
  const location = useLocation();
  const navigate = useNavigate();
  const started = readLocationState(location.state);
  const [userId] = useState(readUserId);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_LIBRARY_PAGE_SIZE);
  const [selected, setSelected] = useState<ReadonlyMap<string, LibraryRow>>(new Map());
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const [regenerating, setRegenerating] = useState<EditTarget | null>(null);
  const [showStarted, setShowStarted] = useState(started.message !== null);
  const [exporting, setExporting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  /** Only the images whose alt text needs review. */
  const [reviewOnly, setReviewOnly] = useState(false);
  const pageSizeId = useId();
  const reviewOnlyId = useId();

  const library = useLibraryPage(userId, page, pageSize, reviewOnly);
  const deletion = useDeleteLibraryImages();
  const approval = useApproveAltText();
  const total = library.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const rows = library.data?.images ?? [];

  useEffect(() => {
    if (library.isError) console.error(messages.images.loadFailed, library.error);
  }, [library.isError, library.error]);

  // After a delete the last page may be gone: show the new last page.
  useEffect(() => {
    if (library.data && !library.isPlaceholderData && page > totalPages) setPage(totalPages);
  }, [library.data, library.isPlaceholderData, page, totalPages]);

  /** Keeps a selected row's copy (used by the export) up to date after an edit, approval or regenerate. */
  const replaceRow = (image: Pick<LibraryRow, 'id'> & Partial<LibraryRow>) => {
    setSelected((current) => {
      const row = current.get(image.id);
      if (!row) return current;
      const next = new Map(current);
      next.set(image.id, { ...row, ...image });
      return next;
    });
  };

  const approve = (row: LibraryRow) => {
    approval.mutate(row.id, {
      onSuccess: (image) => {
        replaceRow(image);
        notify.success(altTextApproved);
      },
      onError: (error) => notify.error(serverMessage(error) ?? altTextApproveFailed),
    });
  };

  const toggle = (row: LibraryRow) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });

  const togglePage = (select: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (select) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });

  const copy = (row: LibraryRow) =>
    copyText(row.alt_text, messages.images.copied, {
      success: { position: 'top-right', duration: TOAST_COPY_MS },
    });

  const deleteSelected = () => {
    if (selected.size === 0) return;
    deletion.mutate([...selected.keys()], {
      onSuccess: () => {
        setSelected(new Map());
        notify.success(messages.images.deleteSuccess);
      },
      onError: (error) => {
        console.error(messages.images.deleteFailed, error);
        notify.error(messages.images.deleteFailed);
      },
    });
  };

  /** The selected images with their alt text written into each file, as a zip (ADR 064). */
  const downloadSelected = async () => {
    if (selected.size === 0) return;
    setDownloading(true);
    try {
      await downloadImagesWithAlt([...selected.keys()]);
    } catch (error) {
      notify.error(errorMessage(error, 'The images could not be downloaded. Please try again.'));
    } finally {
      setDownloading(false);
    }
  };

  const exportSheet = async () => {
    if (!userId) return;
    setExporting(true);
    try {
      const all = selected.size > 0 ? [...selected.values()] : await listAllLibraryImages(userId);
      if (all.length === 0) {
        notify.info(nothingToExport);
        return;
      }
      // Only alt text we can stand behind leaves in a file (ADR 067); the rest need a person's words.
      const images = all.filter((image) => image.publishable);
      const leftOut = all.length - images.length;
      const needWords = `${leftOut} ${leftOut === 1 ? 'image needs' : 'images need'} your words first and ${leftOut === 1 ? 'was' : 'were'} left out.`;
      if (images.length === 0) {
        notify.info(`Nothing exported: ${needWords}`);
        return;
      }
      const { exportImages } = await import('./export-images.ts');
      await exportImages(images);
      if (leftOut > 0) notify.info(needWords);
    } catch (error) {
      console.error(exportFailed, error);
      notify.error(exportFailed);
    } finally {
      setExporting(false);
    }
  };

  const changePageSize = (size: number) => {
    setPageSize(size);
    setPage(1);
  };

  const changeReviewOnly = (only: boolean) => {
    setReviewOnly(only);
    setPage(1);
  };

  let body: React.ReactNode;
  if (!userId) {
    body = (
      <p role="alert" className="text-red-800">
        Error: {messages.images.noUserId}
      </p>
    );
  } else if (library.isPending) {
    body = (
      <p role="status" className="flex items-center gap-3 text-slate-700">
        <Spinner className="size-5" /> Loading...
      </p>
    );
  } else if (library.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3 text-red-800">
        <p>Error: {messages.images.loadFailed}</p>
        <Button variant="secondary" size="sm" onClick={() => void library.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (total === 0 && rows.length === 0) {
    body = <p className="text-slate-800">{reviewOnly ? noneNeedReview : messages.images.none}</p>;
  } else {
    body = (
      <LibraryTable
        rows={rows}
        firstNumber={(page - 1) * pageSize + 1}
        selected={new Set(selected.keys())}
        onToggle={toggle}
        onTogglePage={togglePage}
        onCopy={(row) => void copy(row)}
        onEdit={(row, number) => setEditing({ ...row, number })}
        onRegenerate={(row, number) => setRegenerating({ ...row, number })}
        onApprove={approve}
        approvingId={approval.isPending ? approval.variables : null}
      />
    );
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Images</h1>
        {/* the product spec §2 calls these buttons; they navigate, as the original's did. */}
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => navigate(routes.scrape)}>Scrape</Button>
          <Button onClick={() => navigate(routes.uploadImages)}>Upload</Button>
          <Button variant="secondary" onClick={() => navigate(routes.captionGenerator)}>
            Edit Image
          </Button>
          <Button variant="secondary" onClick={() => navigate(routes.reelGenerator)}>
            Reel
          </Button>
        </div>
      </div>

      {showStarted && started.message ? (
        <MessageBanner type="success" className="mt-6" onDismiss={() => setShowStarted(false)}>
          {started.message}
        </MessageBanner>
      ) : null}

      <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <p className="font-medium text-slate-900" aria-live="polite">
            Selected: {selected.size}
          </p>
          <Button
            variant="danger"
            size="sm"
            disabled={selected.size === 0}
            isLoading={deletion.isPending}
            loadingText="Deleting..."
            onClick={deleteSelected}
          >
            Delete
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={selected.size === 0}
            isLoading={downloading}
            loadingText="Writing alt text into the images..."
            onClick={() => void downloadSelected()}
          >
            Download with alt text
          </Button>
          {selected.size > 0 ? (
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Map())}>
              Clear selection
            </Button>
          ) : null}
        </div>
        {userId ? (
          <div className="flex items-center gap-2">
            <input
              id={reviewOnlyId}
              type="checkbox"
              className="size-5 accent-indigo-700"
              checked={reviewOnly}
              onChange={(event) => changeReviewOnly(event.target.checked)}
            />
            <label htmlFor={reviewOnlyId} className="text-sm font-medium text-slate-900">
              Needs review only
            </label>
          </div>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          disabled={!userId || (total === 0 && selected.size === 0)}
          isLoading={exporting}
          loadingText="Exporting..."
          onClick={() => void exportSheet()}
        >
          Export
        </Button>
      </div>

      <div className="mt-4">{body}</div>

      {userId && library.data && total > 0 ? (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-2">
            <label htmlFor={pageSizeId} className="text-sm font-medium text-slate-900">
              Items per page
            </label>
            <select
              id={pageSizeId}
              value={pageSize}
              onChange={(event) => changePageSize(Number(event.target.value))}
              className="min-h-9 rounded-md border border-slate-500 bg-white px-2 text-slate-900"
            >
              {LIBRARY_PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
          <nav aria-label="Library pages" className="flex items-center gap-3">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span className="text-sm text-slate-900" aria-live="polite">
              Page {page} of {totalPages}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={page >= totalPages}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </nav>
        </div>
      ) : null}

      {editing ? (
        <EditAltTextDialog
          target={editing}
          onClose={() => setEditing(null)}
          onSaved={(image) => {
            replaceRow(image);
            setEditing(null);
          }}
        />
      ) : null}
      {regenerating ? (
        <RegenerateDialog
          target={regenerating}
          onClose={() => setRegenerating(null)}
          onDone={(image) => {
            replaceRow(image);
            setRegenerating(null);
          }}
        />
      ) : null}

      {userId ? <ProgressPanel startedBatchId={started.batchId} /> : null}
    </div>
  );
}
