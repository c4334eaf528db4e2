import {
  createMonitorRequestSchema,
  type Monitor,
  type MonitorDifference,
  type MonitorEvery,
  type MonitorImage,
  type MonitorRunStatus,
  monitorEverySchema,
} from '@altwise/contracts/monitors';
import { routes } from '@altwise/contracts/routes';
import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  emptySiteAuditText,
  renderLabels,
  SiteAuditFields,
  scopeLabels,
  siteAuditTextSchema,
  toSiteAuditRequest,
} from '../../components/site-audit-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { RadioGroup } from '../../components/ui/radio-group.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { formatDate, formatScore } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import {
  isRunUnderway,
  useCreateMonitor,
  useDeleteMonitor,
  useMonitors,
  useRunMonitorNow,
} from './api/monitors.ts';
import { ScoreChart } from './score-chart.tsx';

const everyLabels: Record<MonitorEvery, string> = { day: 'Every day', week: 'Every week' };
const runStatusLabels: Record<MonitorRunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  skipped: 'Skipped',
};

const images = (n: number) => `${n} image${n === 1 ? '' : 's'}`;

/** The form's text values, read by the same contract the server checks (POST /audits' fields and every). */
const monitorFormSchema = siteAuditTextSchema
  .extend({ every: z.string() })
  // The pipe checks every; the cast only tells the type so.
  .transform(({ every, ...site }) => ({ ...toSiteAuditRequest(site), every: every as MonitorEvery }))
  .pipe(createMonitorRequestSchema);

const emptyForm = { ...emptySiteAuditText, every: 'week' };

function AddMonitorForm() {
  const create = useCreateMonitor();
  const form = useForm(monitorFormSchema, emptyForm);
  const [problem, setProblem] = useState<string | null>(null);

  const onValid = form.handleSubmit((body) => {
    setProblem(null);
    create.mutate(body, {
      onSuccess: (monitor) => {
        notify.success(`Watching ${monitor.url}. Its first audit has started.`);
        form.reset();
      },
      onError: (error) =>
        setProblem(errorMessage(error, 'The monitor could not be added. Please try again.')),
    });
  });

  return (
    <form noValidate onSubmit={onValid} className="flex flex-col gap-5" aria-label="Watch a site">
      <SiteAuditFields field={form.field} maxPagesHint="Each run counts as one audit." />
      <RadioGroup
        legend="How often"
        options={monitorEverySchema.options}
        labels={everyLabels}
        field={form.field('every')}
      />
      {problem ? (
        <MessageBanner type="error" onDismiss={() => setProblem(null)}>
          {problem}
        </MessageBanner>
      ) : null}
      <div>
        <Button type="submit" isLoading={create.isPending} loadingText="Adding...">
          Start monitoring
        </Button>
      </div>
    </form>
  );
}

function ImageList({ heading, images }: { heading: string; images: MonitorImage[] }) {
  if (images.length === 0) return null;
  return (
    <>
      <h4 className="mt-2 text-sm font-semibold text-slate-900">{heading}</h4>
      <ul className="list-disc pl-5 text-sm break-all text-slate-700">
        {images.map((image) => (
          <li key={`${image.pageUrl} ${image.src}`}>
            {image.src} on {image.pageUrl}
          </li>
        ))}
      </ul>
    </>
  );
}

function Difference({ difference }: { difference: MonitorDifference }) {
  const change = difference.scoreChange === null ? null : Math.round(difference.scoreChange * 100);
  return (
    <div>
      <p className="text-slate-900">
        Since the audit before: {images(difference.newFailures)} newly failing, {images(difference.fixed)}{' '}
        fixed
        {change === null
          ? ''
          : `, score ${change > 0 ? `up ${change}` : change < 0 ? `down ${-change}` : 'unchanged'}${change === 0 ? '' : ` point${Math.abs(change) === 1 ? '' : 's'}`}`}
        .
      </p>
      <ImageList heading="Newly failing" images={difference.newFailureImages} />
      <ImageList heading="Fixed" images={difference.fixedImages} />
    </div>
  );
}

function RunNowButton({ monitor }: { monitor: Monitor }) {
  const runNow = useRunMonitorNow();
  const underway = isRunUnderway(monitor);
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        isLoading={runNow.isPending}
        loadingText="Starting..."
        disabled={underway}
        onClick={() =>
          runNow.mutate(monitor.id, {
            onSuccess: () => notify.success(`A run of ${monitor.url} started.`),
            onError: (error) => notify.error(errorMessage(error, 'The run could not be started.')),
          })
        }
      >
        Run now <span className="sr-only">{monitor.url}</span>
      </Button>
      {underway ? <span className="text-sm text-slate-700">A run is under way.</span> : null}
    </>
  );
}

function MonitorCard({ monitor, onDelete }: { monitor: Monitor; onDelete: (monitor: Monitor) => void }) {
  const run = monitor.lastRun;
  return (
    <article className="rounded-lg border border-slate-200 p-4" aria-labelledby={`monitor-${monitor.id}`}>
      <h3 id={`monitor-${monitor.id}`} className="font-semibold break-all text-slate-900">
        {monitor.url}
      </h3>
      <p className="text-sm text-slate-700">
        {everyLabels[monitor.every]} · {scopeLabels[monitor.scope]} · next audit{' '}
        {formatDate(monitor.nextRunAt)}
      </p>
      <p className="text-sm text-slate-700">Render pages in a browser: {renderLabels[monitor.render]}</p>
      {run ? (
        <p className="mt-2 text-slate-900">
          Latest run: {runStatusLabels[run.status]}
          {run.status === 'completed' ? `, score ${formatScore(run.score)}` : ''} ({formatDate(run.startedAt)}
          )
          {run.auditId ? (
            <>
              {' · '}
              <Link
                to={routes.auditDetail(run.auditId)}
                className="font-medium text-indigo-800 underline underline-offset-2 hover:no-underline"
              >
                Open this audit <span className="sr-only">of {monitor.url}</span>
              </Link>
            </>
          ) : null}
          {run.reason ? <span className="block text-sm text-slate-700">{run.reason}</span> : null}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-start gap-6">
        <ScoreChart url={monitor.url} history={monitor.history} />
        {monitor.history.length > 0 ? (
          <table className="border-collapse text-left text-sm">
            <caption className="sr-only">Scores of {monitor.url}, oldest first</caption>
            <thead>
              <tr className="border-b border-slate-300 text-slate-900">
                <th scope="col" className="py-1 pr-4 font-semibold">
                  Audited
                </th>
                <th scope="col" className="py-1 font-semibold">
                  Score
                </th>
              </tr>
            </thead>
            <tbody>
              {monitor.history.map((point) => (
                <tr key={point.at} className="border-b border-slate-200">
                  <td className="py-1 pr-4">{formatDate(point.at)}</td>
                  <td className="py-1">{formatScore(point.score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
      <div className="mt-3">
        {monitor.lastDifference ? (
          <Difference difference={monitor.lastDifference} />
        ) : (
          <p className="text-sm text-slate-700">The difference shows once two audits have completed.</p>
        )}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <RunNowButton monitor={monitor} />
        <Button variant="secondary" size="sm" onClick={() => onDelete(monitor)}>
          Stop watching <span className="sr-only">{monitor.url}</span>
        </Button>
      </div>
    </article>
  );
}

function MonitorList() {
  const monitors = useMonitors();
  const remove = useDeleteMonitor();
  const [deleting, setDeleting] = useState<Monitor | null>(null);

  if (monitors.isPending) return <p className="text-slate-700">Loading your monitors...</p>;
  if (monitors.isError)
    return (
      <MessageBanner type="error">
        {errorMessage(monitors.error, 'Your monitors could not be loaded.')}
      </MessageBanner>
    );
  const confirmDelete = () => {
    if (!deleting) return;
    const { id, url } = deleting;
    remove.mutate(id, {
      onSuccess: () => notify.success(`Stopped watching ${url}.`),
      onError: (error) => notify.error(errorMessage(error, 'The monitor could not be deleted.')),
      onSettled: () => setDeleting(null),
    });
  };
  return (
    <>
      {monitors.data.length === 0 ? (
        <p className="text-slate-700">You do not watch any site yet.</p>
      ) : (
        <div className="flex flex-col gap-4">
          {monitors.data.map((monitor) => (
            <MonitorCard key={monitor.id} monitor={monitor} onDelete={setDeleting} />
          ))}
        </div>
      )}
      <Dialog
        open={deleting !== null}
        onClose={() => {
          if (!remove.isPending) setDeleting(null);
        }}
        title="Stop watching this site?"
      >
        <p className="break-all text-slate-700">
          No further audits of {deleting?.url} will run. The audits already made stay in your audit list.
        </p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" disabled={remove.isPending} onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            isLoading={remove.isPending}
            loadingText="Deleting..."
            onClick={confirmDelete}
          >
            Delete monitor
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** /monitors: watch a site over time, re-audited every day or week, with its score history. */
export function MonitorsPage() {
  usePageTitle('Monitors');
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Monitors</h1>
      <p className="mt-3 text-lg text-slate-700">
        Watch a site over time: it is audited now, then again every day or week, and each audit is compared
        with the one before. You get an email when images start failing or are fixed.
      </p>
      <p className="mt-2">
        <Link
          to={routes.audit}
          className="font-medium text-indigo-800 underline underline-offset-2 hover:no-underline"
        >
          Back to audits
        </Link>
      </p>
      <Card title="Watch a site" className="mt-8">
        <AddMonitorForm />
      </Card>
      <Card title="Watched sites" className="mt-6">
        <MonitorList />
      </Card>
    </div>
  );
}
