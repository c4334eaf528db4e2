import type { Audit } from '@altwise/contracts/audit';
import { auditProblemCodes, auditProblemRules } from '@altwise/contracts/audit-problems';
import { routes } from '@altwise/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { errorMessage, isApiError } from '../../lib/api-error.ts';
import { useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  auditQueryKey,
  downloadImagesWithAlt,
  downloadReport,
  isAuditFinished,
  useFixAudit,
  useFixBatch,
} from './api/audits.ts';
import { useLiveAudit } from './api/live-audit.ts';
import { AuditImagesTable } from './audit-images-table.tsx';
import {
  formatDate,
  formatScore,
  problemLabels,
  renderLabels,
  scopeLabels,
  statusLabels,
  verdictLabels,
} from './audit-labels.ts';
import { ScreenReaderPreview } from './screen-reader-preview.tsx';
import { useReturnFocus } from './use-return-focus.ts';

function progressText(audit: Audit): string {
  const counts = `${audit.pagesScanned} ${audit.pagesScanned === 1 ? 'page' : 'pages'} scanned, ${audit.imagesFound} ${audit.imagesFound === 1 ? 'image' : 'images'} found`;
  if (audit.status === 'queued') return 'The audit is queued and starts shortly.';
  if (audit.status === 'running') return `Auditing: ${counts} (up to ${audit.maxPages} pages).`;
  if (audit.status === 'completed') return `Audit complete: ${counts}.`;
  return `The audit failed: ${audit.error ?? 'no reason was given'}.`;
}

function Summary({ audit }: { audit: Audit }) {
  const problems = auditProblemCodes.filter((code) => (audit.problems[code] ?? 0) > 0);
  return (
    <Card title="Summary" className="mt-6">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <div>
          <dt className="text-sm text-slate-700">Score</dt>
          <dd className="text-2xl font-bold text-slate-900">{formatScore(audit.score)}</dd>
        </div>
        {(['fail', 'warning', 'pass', 'decorative'] as const).map((verdict) => (
          <div key={verdict}>
            <dt className="text-sm text-slate-700">{verdictLabels[verdict]}</dt>
            <dd className="text-2xl font-bold text-slate-900">{audit.counts[verdict]}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-slate-800">
        Suggestions: {audit.reviews.pending} pending, {audit.reviews.accepted} accepted,{' '}
        {audit.reviews.edited} edited, {audit.reviews.rejected} rejected.
      </p>
      <p className="mt-1 text-sm text-slate-700">
        The score is the share of the images that carry information whose alt text passes every check.
      </p>
      {problems.length > 0 ? (
        <table className="mt-4 w-full border-collapse text-left text-sm">
          <caption className="mb-2 text-left font-semibold text-slate-900">Problems found</caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-1 pr-3 font-semibold">
                Problem
              </th>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Severity
              </th>
              <th scope="col" className="py-1 pr-3 font-semibold">
                WCAG
              </th>
              <th scope="col" className="py-1 font-semibold">
                Images
              </th>
            </tr>
          </thead>
          <tbody>
            {problems.map((code) => (
              <tr key={code} className="border-b border-slate-200">
                <th scope="row" className="py-1 pr-3 font-normal">
                  <span className="font-semibold">{code}</span> {problemLabels[code]}
                </th>
                <td className="py-1 pr-3">{auditProblemRules[code].severity}</td>
                <td className="py-1 pr-3">{auditProblemRules[code].wcag.join(', ')}</td>
                <td className="py-1">{audit.problems[code]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}

function FixPanel({
  audit,
  selected,
  onFixStarted,
  batchId,
}: {
  audit: Audit;
  selected: ReadonlySet<string>;
  onFixStarted: (batchId: string) => void;
  batchId: string | null;
}) {
  const fix = useFixAudit(audit.id);
  const credits = useRemainingCredits();
  const batch = useFixBatch(batchId);
  const [problem, setProblem] = useState<string | null>(null);
  // A 402: the balance is short of the fix; offer to buy credits or to fix what it covers.
  const [shortOfCredits, setShortOfCredits] = useState(false);
  const failing = audit.counts.fail;
  const balance = credits.data?.imageCredits;
  const remember = useReturnFocus(fix.isPending);

  const start = (imageIds: string[] | number | undefined) => {
    setProblem(null);
    setShortOfCredits(false);
    fix.mutate(imageIds, {
      onSuccess: (answer) => {
        const n = answer.images.length;
        notify.success(
          `Writing suggestions for ${n} ${n === 1 ? 'image' : 'images'}${answer.remaining > 0 ? `; ${answer.remaining} more failing images are left for a next fix` : ''}`,
        );
        onFixStarted(answer.batchId);
      },
      onError: (error) => {
        setProblem(errorMessage(error, 'The fix could not be started. Please try again.'));
        setShortOfCredits(isApiError(error) && error.status === 402);
      },
    });
  };
  // What the balance covers of the failing images: "Fix N of M now" starts exactly that many.
  const affordable = balance === undefined ? 0 : Math.min(balance, failing);
  const buyCreditsPath = `${routes.plans}?returnTo=${encodeURIComponent(routes.auditDetail(audit.id))}`;

  const progress = batch.data;
  const running = progress
    ? progress.status !== 'completed' && progress.status !== 'failed'
    : batchId !== null;

  return (
    <Card title="Fix failing images" className="mt-6">
      <p className="text-slate-800">
        Suggestions are written only for the images you choose; existing alt text is never replaced until you
        accept a suggestion. Each image costs 1 credit, refunded if it fails.
      </p>
      <p className="mt-2 text-slate-800">
        {failing} failing {failing === 1 ? 'image costs' : 'images cost'} {failing}{' '}
        {failing === 1 ? 'credit' : 'credits'}
        {selected.size > 0 ? `; the ${selected.size} selected cost ${selected.size}` : ''}.
        {balance === undefined ? '' : ` You have ${balance} ${balance === 1 ? 'credit' : 'credits'}.`}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          disabled={!isAuditFinished(audit) || failing === 0}
          isLoading={fix.isPending && fix.variables === undefined}
          loadingText="Starting..."
          onClick={(event) => {
            remember(event);
            start(undefined);
          }}
        >
          Fix failing images
        </Button>
        <Button
          variant="secondary"
          disabled={!isAuditFinished(audit) || selected.size === 0}
          isLoading={fix.isPending && Array.isArray(fix.variables)}
          loadingText="Starting..."
          onClick={(event) => {
            remember(event);
            start([...selected]);
          }}
        >
          Fix selected images
        </Button>
      </div>
      {problem ? (
        <MessageBanner type="error" className="mt-4" onDismiss={() => setProblem(null)}>
          {problem}
          {shortOfCredits ? (
            <span className="mt-3 flex flex-wrap items-center gap-3">
              <ButtonLink to={buyCreditsPath}>Buy credits</ButtonLink>
              {affordable > 0 && affordable < failing ? (
                <Button
                  variant="secondary"
                  isLoading={fix.isPending && typeof fix.variables === 'number'}
                  loadingText="Starting..."
                  onClick={(event) => {
                    remember(event);
                    start(affordable);
                  }}
                >
                  {`Fix ${affordable} of ${failing} now`}
                </Button>
              ) : null}
            </span>
          ) : null}
        </MessageBanner>
      ) : null}
      <p role="status" className="mt-3 text-sm text-slate-800">
        {batchId === null
          ? ''
          : progress === undefined
            ? 'Writing suggestions...'
            : running
              ? `Writing suggestions: ${progress.completed + progress.failed} of ${progress.total} done.`
              : `Suggestions written: ${progress.completed} of ${progress.total}${progress.failed > 0 ? `, ${progress.failed} failed and refunded` : ''}. Review them below.`}
      </p>
    </Card>
  );
}

/**
 * /audit/:id: live progress while the audit runs, then its score, verdict and problem counts,
 * the fix of failing images, the review of suggestions and the exports.
 */
export function AuditDetailPage() {
  const { id = '' } = useParams();
  const audit = useLiveAudit(id);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [batchId, setBatchId] = useState<string | null>(null);
  const batch = useFixBatch(batchId);
  const fixDone = batch.data?.status === 'completed' || batch.data?.status === 'failed';
  const fixRunning = batchId !== null && !fixDone;
  const queryClient = useQueryClient();
  // The fix batch ended: read the suggestions (and review counts) it wrote.
  useEffect(() => {
    if (fixDone) void queryClient.invalidateQueries({ queryKey: auditQueryKey(id) });
  }, [fixDone, id, queryClient]);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | 'images' | null>(null);
  const rememberExport = useReturnFocus(exporting !== null);
  usePageTitle(audit.data ? `Audit of ${audit.data.url}` : 'Audit');

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    try {
      await downloadReport(id, format);
    } catch (error) {
      notify.error(errorMessage(error, 'The report could not be downloaded. Please try again.'));
    } finally {
      setExporting(null);
    }
  };

  /** The audit's images with their approved alt text written into each file, as a zip (ADR 064). */
  const downloadImages = async () => {
    setExporting('images');
    try {
      await downloadImagesWithAlt(id);
    } catch (error) {
      notify.error(errorMessage(error, 'The images could not be downloaded. Please try again.'));
    } finally {
      setExporting(null);
    }
  };

  if (audit.isPending) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">Audit</h1>
        <p role="status" className="mt-4 text-slate-700">
          Loading the audit...
        </p>
      </div>
    );
  }
  if (audit.isError) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">Audit</h1>
        <MessageBanner type="error" className="mt-4">
          {errorMessage(audit.error, 'The audit could not be loaded.')}
        </MessageBanner>
        <Link to={routes.audit} className="mt-4 inline-block text-indigo-800 underline underline-offset-2">
          Back to your audits
        </Link>
      </div>
    );
  }

  const data = audit.data;
  const finished = isAuditFinished(data);
  // The zip carries approved alt text only (ADR 064): with none approved it would hold nothing new.
  const approved = data.reviews.accepted + data.reviews.edited;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <a
        href="#audit-images-heading"
        className="sr-only focus:not-sr-only focus:mb-2 focus:inline-block focus:rounded focus:bg-white focus:p-2 focus:text-indigo-800 focus:underline"
      >
        Skip to the images table
      </a>
      <Link
        to={routes.audit}
        className="text-sm text-indigo-800 underline underline-offset-2 hover:no-underline"
      >
        Back to your audits
      </Link>
      <h1 className="mt-2 text-3xl font-bold tracking-tight break-all text-slate-900">Audit of {data.url}</h1>
      <p className="mt-2 text-slate-700">
        {scopeLabels[data.scope]} · {statusLabels[data.status]} · started {formatDate(data.createdAt)}
      </p>

      <div
        role="status"
        className={`mt-4 rounded-md border px-4 py-3 ${data.status === 'failed' ? 'border-red-700 bg-red-50 text-red-900' : 'border-slate-300 bg-slate-50 text-slate-900'}`}
      >
        {progressText(data)}
      </div>
      <p className="mt-2 text-sm text-slate-700">
        Render pages in a browser: {renderLabels[data.render]}
        {data.pagesRendered > 0
          ? ` · ${data.pagesRendered} ${data.pagesRendered === 1 ? 'page was' : 'pages were'} rendered`
          : ''}
      </p>
      {data.notices.length > 0 ? (
        <ul className="mt-3 list-disc pl-5 text-sm text-slate-800">
          {data.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      ) : null}

      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={!finished}
          isLoading={exporting === 'csv'}
          loadingText="Exporting..."
          onClick={(event) => {
            rememberExport(event);
            void exportAs('csv');
          }}
        >
          Export CSV
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!finished}
          isLoading={exporting === 'xlsx'}
          loadingText="Exporting..."
          onClick={(event) => {
            rememberExport(event);
            void exportAs('xlsx');
          }}
        >
          Export XLSX
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!finished || approved === 0}
          aria-describedby={finished && approved === 0 ? 'download-images-reason' : undefined}
          isLoading={exporting === 'images'}
          loadingText="Writing alt text into the images..."
          onClick={(event) => {
            rememberExport(event);
            void downloadImages();
          }}
        >
          Download images with alt text
        </Button>
        <ButtonLink variant="secondary" size="sm" to={routes.auditReport(data.id)}>
          Printable report
        </ButtonLink>
      </div>
      {finished && approved === 0 ? (
        <p id="download-images-reason" className="mt-2 text-sm text-slate-700">
          Download images with alt text is available once you accept or edit at least one suggestion.
        </p>
      ) : null}

      <Summary audit={data} />
      <FixPanel audit={data} selected={selected} batchId={batchId} onFixStarted={setBatchId} />
      <Card className="mt-6">
        <AuditImagesTable
          auditId={data.id}
          selected={selected}
          onSelectedChange={setSelected}
          poll={!finished || fixRunning}
        />
      </Card>
      <Card className="mt-6">
        <ScreenReaderPreview auditId={data.id} poll={!finished} />
      </Card>
    </div>
  );
}
