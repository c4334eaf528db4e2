import type { AuditImage } from '@altwise/contracts/audit';
import { auditProblemCodes } from '@altwise/contracts/audit-problems';
import { routes } from '@altwise/contracts/routes';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ImageFileName, Thumbnail } from '../../components/ui/image-preview.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { AnnouncementList } from './announcement-list.tsx';
import { auditImagesQueryKey, auditQueryKey, getAllAuditImages, getAudit } from './api/audits.ts';
import { getAuditPages, getPageAnnouncements, pageAnnouncementsQueryKey } from './api/screen-reader.ts';
import {
  elementLabels,
  formatDate,
  formatScore,
  problemLabels,
  scopeLabels,
  statusLabels,
  verdictLabels,
} from './audit-labels.ts';

type PageScore = { pageUrl: string; images: number; passing: number; failing: number; score: number | null };

/** Score per page: the share of its non-decorative images that pass, as the site score is computed. */
export function scoresPerPage(images: readonly AuditImage[]): PageScore[] {
  const pages = new Map<string, PageScore>();
  for (const image of images) {
    const page = pages.get(image.pageUrl) ?? {
      pageUrl: image.pageUrl,
      images: 0,
      passing: 0,
      failing: 0,
      score: null,
    };
    page.images += 1;
    if (image.verdict === 'pass') page.passing += 1;
    if (image.verdict === 'fail') page.failing += 1;
    pages.set(image.pageUrl, page);
  }
  for (const page of pages.values()) {
    const decorative = images.filter((i) => i.pageUrl === page.pageUrl && i.verdict === 'decorative').length;
    const counted = page.images - decorative;
    page.score = counted === 0 ? null : page.passing / counted;
  }
  return [...pages.values()];
}

const cell = 'border border-slate-300 px-2 py-1 align-top';

/** Pages whose screen-reader preview the printed report shows. */
export const REPORT_PREVIEW_PAGES = 10;

/** The screen-reader preview of the first REPORT_PREVIEW_PAGES scanned pages (point 4). */
function ReportScreenReaderPreview({ auditId }: { auditId: string }) {
  const pages = useQuery({
    queryKey: ['audits', auditId, 'pages', 'report'],
    queryFn: ({ signal }) => getAuditPages(auditId, signal),
  });
  const scanned = (pages.data?.items ?? []).filter((page) => page.status === 'scanned');
  const shown = scanned.slice(0, REPORT_PREVIEW_PAGES);
  const previews = useQueries({
    queries: shown.map((page) => ({
      queryKey: pageAnnouncementsQueryKey(auditId, page.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => getPageAnnouncements(auditId, page.id, signal),
    })),
  });
  return (
    <section aria-labelledby="report-screen-reader" className="mt-8">
      <h2 id="report-screen-reader" className="text-xl font-semibold">
        Screen-reader preview
      </h2>
      {pages.isError ? (
        <p className="mt-2">{errorMessage(pages.error, 'The screen-reader preview could not be loaded.')}</p>
      ) : !pages.data ? (
        <p className="mt-2">Loading the screen-reader preview...</p>
      ) : shown.length === 0 ? (
        <p className="mt-2">No page was scanned.</p>
      ) : (
        <>
          {scanned.length > shown.length ? (
            <p className="mt-2 text-sm">
              The first {shown.length} of {scanned.length} pages; the audit shows the others.
            </p>
          ) : null}
          {shown.map((page, index) => {
            const preview = previews[index]?.data;
            return (
              <div key={page.id} className="mt-4">
                <h3 className="font-semibold break-all">{page.url}</h3>
                {preview ? (
                  <>
                    <p className="text-sm">
                      {preview.redundant} redundant, {preview.verbose} verbose
                      {preview.hiddenImages > 0
                        ? `, ${preview.hiddenImages} hidden images not in the audit`
                        : ''}
                      .
                    </p>
                    <AnnouncementList items={preview.items} label={`Announcements on ${page.url}`} />
                  </>
                ) : (
                  <p className="text-sm">Loading...</p>
                )}
              </div>
            );
          })}
        </>
      )}
    </section>
  );
}

function ColumnHeaders({ labels }: { labels: readonly string[] }) {
  return (
    <thead>
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className={cell}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * /audit/:id/report: a printable report (summary, score per page, failing images with their
 * problems). The print stylesheet hides the site's frame and the buttons, so "Print" makes a clean PDF.
 */
export function AuditReportPage() {
  const { id = '' } = useParams();
  const audit = useQuery({ queryKey: auditQueryKey(id), queryFn: ({ signal }) => getAudit(id, signal) });
  const images = useQuery({
    queryKey: [...auditImagesQueryKey(id), 'all'],
    queryFn: ({ signal }) => getAllAuditImages(id, {}, signal),
  });
  usePageTitle(audit.data ? `Audit report for ${audit.data.url}` : 'Audit report');

  const error = audit.error ?? images.error;
  if (error) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">Audit report</h1>
        <MessageBanner type="error" className="mt-4">
          {errorMessage(error, 'The report could not be loaded.')}
        </MessageBanner>
      </div>
    );
  }
  if (!audit.data || !images.data) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">Audit report</h1>
        <p role="status" className="mt-4 text-slate-700">
          Loading the report...
        </p>
      </div>
    );
  }

  const data = audit.data;
  const failing = images.data.filter((image) => image.verdict === 'fail');
  const pages = scoresPerPage(images.data);
  const problems = auditProblemCodes.filter((code) => (data.problems[code] ?? 0) > 0);

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 text-slate-900 print:max-w-none print:p-0 print:text-black">
      <div className="mb-6 flex flex-wrap items-center gap-3 print:hidden">
        <Link
          to={routes.auditDetail(data.id)}
          className="text-sm text-indigo-800 underline underline-offset-2"
        >
          Back to the audit
        </Link>
        <Button size="sm" onClick={() => window.print()}>
          Print
        </Button>
      </div>
      <h1 className="text-3xl font-bold break-all print:text-2xl">Alt-text audit report: {data.url}</h1>
      <p className="mt-2 text-slate-700 print:text-black">
        {scopeLabels[data.scope]} · {statusLabels[data.status]} · started {formatDate(data.createdAt)}
        {data.finishedAt ? ` · finished ${formatDate(data.finishedAt)}` : ''}
      </p>

      <section aria-labelledby="report-summary" className="mt-6 break-inside-avoid">
        <h2 id="report-summary" className="text-xl font-semibold">
          Summary
        </h2>
        <dl className="mt-2 grid grid-cols-3 gap-3 sm:grid-cols-7 print:grid-cols-7">
          {[
            ['Score', formatScore(data.score)],
            ['Pages scanned', String(data.pagesScanned)],
            ['Images found', String(data.imagesFound)],
            ...(['fail', 'warning', 'pass', 'decorative'] as const).map((v) => [
              verdictLabels[v],
              String(data.counts[v]),
            ]),
          ].map(([label, value]) => (
            <div key={label} className="rounded border border-slate-300 p-2">
              <dt className="text-xs text-slate-700 print:text-black">{label}</dt>
              <dd className="text-lg font-bold">{value}</dd>
            </div>
          ))}
        </dl>
        {problems.length > 0 ? (
          <ul className="mt-3 list-disc pl-5 text-sm">
            {problems.map((code) => (
              <li key={code}>
                {code} ({problemLabels[code]}): {data.problems[code]}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="report-pages" className="mt-8">
        <h2 id="report-pages" className="text-xl font-semibold">
          Score per page
        </h2>
        <table className="mt-2 w-full border-collapse text-left text-sm">
          <ColumnHeaders labels={['Page', 'Images', 'Failing', 'Score']} />
          <tbody>
            {pages.map((page) => (
              <tr key={page.pageUrl} className="break-inside-avoid">
                <th scope="row" className={`${cell} font-normal break-all`}>
                  {page.pageUrl}
                </th>
                <td className={cell}>{page.images}</td>
                <td className={cell}>{page.failing}</td>
                <td className={cell}>{formatScore(page.score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="report-failing" className="mt-8">
        <h2 id="report-failing" className="text-xl font-semibold">
          Failing images ({failing.length})
        </h2>
        {failing.length === 0 ? (
          <p className="mt-2">No image fails.</p>
        ) : (
          <table className="mt-2 w-full border-collapse text-left text-sm">
            <ColumnHeaders labels={['Image', 'Existing alt', 'Problems', 'Suggestion']} />
            <tbody>
              {failing.map((image) => (
                <tr key={image.id} className="break-inside-avoid">
                  <th scope="row" className={`${cell} font-normal break-all`}>
                    <Thumbnail
                      url={image.thumbnailUrl}
                      fallbackUrl={image.src}
                      loading="eager"
                      className="mb-1 h-16 w-24"
                    />
                    <ImageFileName src={image.src} />
                    {image.src}
                    <span className="block text-slate-700 print:text-black">on {image.pageUrl}</span>
                    <span className="block text-slate-700 print:text-black">
                      {elementLabels[image.element]}
                    </span>
                  </th>
                  <td className={cell}>
                    {image.alt === null ? '(missing)' : image.alt === '' ? '(empty)' : image.alt}
                  </td>
                  <td className={cell}>
                    <ul>
                      {image.problems.map((problem) => (
                        <li key={problem.code}>
                          <strong>{problem.code}</strong> (WCAG {problem.wcag.join(', ')}): {problem.message}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className={cell}>{image.suggestion ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <ReportScreenReaderPreview auditId={data.id} />
    </div>
  );
}
