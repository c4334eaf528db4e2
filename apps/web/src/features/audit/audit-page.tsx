import {
  type AuditRender,
  type AuditScope,
  auditRenderSchema,
  auditScopeSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  MAX_AUDIT_PAGES,
  type StartAuditRequest,
  startAuditRequestSchema,
} from '@altwise/contracts/audit';
import { routes } from '@altwise/contracts/routes';
import { SCRAPE_URL_MAX_CHARS } from '@altwise/contracts/scrape';
import { type ChangeEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import { isAuditFinished, useAudits, useStartAudit } from './api/audits.ts';
import { formatDate, formatScore, renderLabels, scopeLabels, statusLabels } from './audit-labels.ts';

/** The form's text values, read by the same contract the server checks. */
const auditFormSchema = z
  .object({ url: z.string(), scope: z.string(), maxPages: z.string(), render: z.string() })
  // The pipe checks the scope and render; the casts only tell the types so. An empty max pages takes the default.
  .transform(
    ({ url, scope, maxPages, render }): StartAuditRequest => ({
      url,
      scope: scope as AuditScope,
      ...(maxPages.trim() === '' ? {} : { maxPages: Number(maxPages) }),
      render: render as AuditRender,
    }),
  )
  .pipe(startAuditRequestSchema);

const emptyForm = { url: '', scope: 'site', maxPages: String(DEFAULT_AUDIT_MAX_PAGES), render: 'auto' };

function StartAuditForm() {
  const navigate = useNavigate();
  const start = useStartAudit();
  const form = useForm(auditFormSchema, emptyForm);
  const [problem, setProblem] = useState<string | null>(null);
  const scopeField = form.field('scope');
  const scopeError = form.field('scope').error;
  const renderField = form.field('render');

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
      <TextField
        label="Website URL"
        type="text"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com/"
        maxLength={SCRAPE_URL_MAX_CHARS}
        {...form.field('url')}
      />
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={scopeError ? 'audit-scope-error' : undefined}
      >
        <legend className="text-sm font-medium text-slate-900">What to audit</legend>
        {auditScopeSchema.options.map((scope: AuditScope) => (
          <label key={scope} className="flex min-h-11 items-center gap-3 text-slate-900">
            <input
              type="radio"
              name={scopeField.name}
              value={scope}
              checked={scopeField.value === scope}
              onChange={scopeField.onChange}
              className="size-5 accent-indigo-700"
            />
            {scopeLabels[scope]}
          </label>
        ))}
        {scopeError ? (
          <p id="audit-scope-error" className="text-sm font-medium text-red-700">
            {scopeError}
          </p>
        ) : null}
      </fieldset>
      <TextField
        label="Max pages"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_AUDIT_PAGES}
        hint={`At most ${MAX_AUDIT_PAGES} pages. Audits are free.`}
        className="max-w-xs"
        {...form.field('maxPages')}
      />
      <div className="flex max-w-md flex-col gap-1">
        <label htmlFor="audit-render" className="text-sm font-medium text-slate-900">
          Render pages in a browser
        </label>
        <select
          id="audit-render"
          name={renderField.name}
          value={renderField.value}
          onChange={(event) => renderField.onChange(event as unknown as ChangeEvent<HTMLInputElement>)}
          aria-describedby="audit-render-hint"
          className="min-h-11 rounded-md border border-slate-400 bg-white px-3 text-slate-900 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-700"
        >
          {auditRenderSchema.options.map((render: AuditRender) => (
            <option key={render} value={render}>
              {renderLabels[render]}
            </option>
          ))}
        </select>
        <p id="audit-render-hint" className="text-sm text-slate-700">
          A rendered page is read as visitors see it, after its scripts have run, with a screenshot of each
          image.
        </p>
      </div>
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
 * /audit (issue 13): start an audit of a page, a site or a sitemap, and the list of the user's audits.
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
