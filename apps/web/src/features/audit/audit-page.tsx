import { startAuditRequestSchema } from '@altwise/contracts/audit';
import { routes } from '@altwise/contracts/routes';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  emptySiteAuditText,
  SiteAuditFields,
  siteAuditTextSchema,
  toSiteAuditRequest,
} from '../../components/site-audit-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import { isAuditFinished, useAudits, useStartAudit } from './api/audits.ts';
import { formatDate, formatScore, scopeLabels, statusLabels } from './audit-labels.ts';

/** The form's text values, read by the same contract the server checks. */
const auditFormSchema = siteAuditTextSchema.transform(toSiteAuditRequest).pipe(startAuditRequestSchema);

function StartAuditForm() {
  const navigate = useNavigate();
  const start = useStartAudit();
  const form = useForm(auditFormSchema, emptySiteAuditText);
  const [problem, setProblem] = useState<string | null>(null);

  const onValid = form.handleSubmit((body) => {
    setProblem(null);
    start.mutate(body, {
      onSuccess: ({ id }) => navigate(routes.auditDetail(id)),
      onError: (error) =>
        setProblem(errorMessage(error, 'The audit could not be started. Please try again.')),
    });
  });

  return (
    <form noValidate onSubmit={onValid} className="flex flex-col gap-5" aria-label="Start an audit">
      <SiteAuditFields field={form.field} maxPagesHint="Audits are free." />
      {problem ? (
        <MessageBanner type="error" onDismiss={() => setProblem(null)}>
          {problem}
        </MessageBanner>
      ) : null}
      <div>
        <Button type="submit" isLoading={start.isPending} loadingText="Starting...">
          Start audit
        </Button>
      </div>
    </form>
  );
}

function AuditList() {
  const audits = useAudits();
  if (audits.isPending) return <p className="text-slate-700">Loading your audits...</p>;
  if (audits.isError)
    return (
      <MessageBanner type="error">
        {errorMessage(audits.error, 'Your audits could not be loaded.')}
      </MessageBanner>
    );
  if (audits.data.length === 0) return <p className="text-slate-700">You have not run an audit yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
        <caption className="sr-only">Your audits, newest first</caption>
        <thead>
          <tr className="border-b border-slate-300 text-slate-900">
            <th scope="col" className="py-2 pr-3 font-semibold">
              Site
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Status
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Pages scanned
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Images found
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Score
            </th>
            <th scope="col" className="py-2 font-semibold">
              Started
            </th>
          </tr>
        </thead>
        <tbody>
          {audits.data.map((audit) => (
            <tr key={audit.id} className="border-b border-slate-200 align-top">
              <th scope="row" className="py-2 pr-3 font-normal">
                <Link
                  to={routes.auditDetail(audit.id)}
                  className="font-medium break-all text-indigo-800 underline underline-offset-2 hover:no-underline"
                >
                  {audit.url}
                </Link>
                <span className="block text-slate-700">{scopeLabels[audit.scope]}</span>
              </th>
              <td className="py-2 pr-3">{statusLabels[audit.status]}</td>
              <td className="py-2 pr-3">{audit.pagesScanned}</td>
              <td className="py-2 pr-3">{audit.imagesFound}</td>
              <td className="py-2 pr-3">{isAuditFinished(audit) ? formatScore(audit.score) : '–'}</td>
              <td className="py-2">{formatDate(audit.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /audit: start an audit of a page, a site or a sitemap, and the list of the user's audits.
 */
export function AuditPage() {
  usePageTitle('Audit alt text');
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Audit alt text</h1>
      <p className="mt-3 text-lg text-slate-700">
        Check the alt text a site already has. Each image gets a verdict with the WCAG criteria behind it;
        good alt text is kept, and you choose what to fix.
      </p>
      <p className="mt-2">
        <Link
          to={routes.monitors}
          className="font-medium text-indigo-800 underline underline-offset-2 hover:no-underline"
        >
          Watch a site over time
        </Link>{' '}
        <span className="text-slate-700">(re-audited every day or week, with its score history).</span>
      </p>
      <Card title="Start an audit" className="mt-8">
        <StartAuditForm />
      </Card>
      <Card title="Your audits" className="mt-6">
        <AuditList />
      </Card>
    </div>
  );
}
