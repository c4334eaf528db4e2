import type { AuditPage } from '@altwise/contracts/audit';
import { useEffect, useRef, useState } from 'react';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { AnnouncementList } from './announcement-list.tsx';
import { useAuditPages, usePageAnnouncements } from './api/screen-reader.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function PagePreview({ auditId, page }: { auditId: string; page: AuditPage }) {
  const [open, setOpen] = useState(false);
  const preview = usePageAnnouncements(auditId, page.id, open);
  return (
    <details
      className="rounded border border-slate-300 p-3"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer font-medium break-all text-slate-900">
        Screen-reader preview of {page.url}
        <span className="font-normal text-slate-700">
          {' '}
          ({plural(page.images, 'image')}
          {page.hiddenImages > 0 ? `, ${plural(page.hiddenImages, 'hidden image')}` : ''})
        </span>
      </summary>
      <div className="mt-3 flex flex-col gap-2">
        {preview.isError ? (
          <MessageBanner type="error">
            {errorMessage(preview.error, 'The screen-reader preview could not be loaded.')}
          </MessageBanner>
        ) : !preview.data ? (
          <p role="status" className="text-sm text-slate-700">
            Loading the preview...
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-800">
              {plural(preview.data.redundant, 'redundant announcement')},{' '}
              {plural(preview.data.verbose, 'verbose announcement')}.
              {preview.data.hiddenImages > 0
                ? ` ${plural(preview.data.hiddenImages, 'hidden image')} ${preview.data.hiddenImages === 1 ? 'is' : 'are'} not announced and not in the audit.`
                : ''}
              {preview.data.truncated ? ' The page has more announcements than are shown here.' : ''}
            </p>
            <AnnouncementList items={preview.data.items} label={`Announcements on ${page.url}`} />
          </>
        )}
      </div>
    </details>
  );
}

/**
 * The audit's screen-reader preview (point 4): one disclosure per scanned page, each
 * loading what a screen reader announces for that page's headings, links and images when opened.
 */
export function ScreenReaderPreview({ auditId, poll }: { auditId: string; poll: boolean }) {
  const pages = useAuditPages(auditId, { poll });
  // The audit can finish between two polls: read the pages once more when polling stops, or the
  // last pages scanned would never show.
  const { refetch } = pages;
  const polled = useRef(poll);
  useEffect(() => {
    if (polled.current && !poll) void refetch();
    polled.current = poll;
  }, [poll, refetch]);
  const scanned = pages.data?.items.filter((page) => page.status === 'scanned') ?? [];
  return (
    <section aria-labelledby="screen-reader-preview-heading" className="flex flex-col gap-3">
      <h2 id="screen-reader-preview-heading" className="text-xl font-semibold text-slate-900">
        Screen-reader preview
      </h2>
      <p className="text-sm text-slate-700">
        What a screen reader announces for each page’s headings, links and images, in reading order, with
        redundant and verbose announcements marked.
      </p>
      {pages.isError ? (
        <MessageBanner type="error">
          {errorMessage(pages.error, 'The pages could not be loaded.')}
        </MessageBanner>
      ) : pages.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          Loading the pages...
        </p>
      ) : scanned.length === 0 ? (
        <p className="text-sm text-slate-700">No page has been scanned yet.</p>
      ) : (
        scanned.map((page) => <PagePreview key={page.id} auditId={auditId} page={page} />)
      )}
    </section>
  );
}
