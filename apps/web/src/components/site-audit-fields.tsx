import {
  type AuditRender,
  type AuditScope,
  auditRenderSchema,
  auditScopeSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  MAX_AUDIT_PAGES,
  type StartAuditRequest,
} from '@altwise/contracts/audit';
import { SCRAPE_URL_MAX_CHARS } from '@altwise/contracts/scrape';
import { type ChangeEvent, useId } from 'react';
import { z } from 'zod';
import type { FieldProps } from '../lib/use-form.ts';
import { RadioGroup } from './ui/radio-group.tsx';
import { TextField } from './ui/text-field.tsx';

/**
 * The fields of a site audit (url, scope, max pages, render), as the audit form and the monitors form
 * both ask for them: POST /monitors takes the fields of POST /audits (contracts `monitors.ts`).
 */

export const scopeLabels: Record<AuditScope, string> = {
  page: 'This page',
  site: 'Whole site (linked pages)',
  sitemap: 'Sitemap',
};

/** The audit's rendering option (ADR 061), as the forms and the audit page name it. */
export const renderLabels: Record<AuditRender, string> = {
  auto: 'Automatically, for pages built by scripts',
  always: 'Always, every page',
  never: 'Never, read the HTML as sent',
};

/** The fields' text values as a form holds them; a page extends it with its own fields. */
export const siteAuditTextSchema = z.object({
  url: z.string(),
  scope: z.string(),
  maxPages: z.string(),
  render: z.string(),
});
export type SiteAuditText = z.infer<typeof siteAuditTextSchema>;

export const emptySiteAuditText: SiteAuditText = {
  url: '',
  scope: 'site',
  maxPages: String(DEFAULT_AUDIT_MAX_PAGES),
  render: 'auto',
};

/**
 * The text values as the request body, for the contract's schema to check next (in a `.pipe`): the
 * casts only tell the types what that pipe checks. An empty max pages takes the contract's default.
 */
export function toSiteAuditRequest({ url, scope, maxPages, render }: SiteAuditText): StartAuditRequest {
  return {
    url,
    scope: scope as AuditScope,
    ...(maxPages.trim() === '' ? {} : { maxPages: Number(maxPages) }),
    render: render as AuditRender,
  };
}

/** The four fields, wired to a `useForm` whose values include SiteAuditText. */
export function SiteAuditFields({
  field,
  maxPagesHint,
}: {
  field: (name: keyof SiteAuditText) => FieldProps;
  /** What the pages cost, after the limit: "Audits are free.", "Each run counts as one audit." */
  maxPagesHint: string;
}) {
  const renderId = useId();
  const render = field('render');
  return (
    <>
      <TextField
        label="Website URL"
        type="text"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com/"
        maxLength={SCRAPE_URL_MAX_CHARS}
        {...field('url')}
      />
      <RadioGroup
        legend="What to audit"
        options={auditScopeSchema.options}
        labels={scopeLabels}
        field={field('scope')}
      />
      <TextField
        label="Max pages"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_AUDIT_PAGES}
        hint={`At most ${MAX_AUDIT_PAGES} pages. ${maxPagesHint}`}
        className="max-w-xs"
        {...field('maxPages')}
      />
      <div className="flex max-w-md flex-col gap-1">
        <label htmlFor={renderId} className="text-sm font-medium text-slate-900">
          Render pages in a browser
        </label>
        <select
          id={renderId}
          name={render.name}
          value={render.value}
          onChange={(event) => render.onChange(event as unknown as ChangeEvent<HTMLInputElement>)}
          aria-describedby={`${renderId}-hint`}
          className="min-h-11 rounded-md border border-slate-400 bg-white px-3 text-slate-900 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-700"
        >
          {auditRenderSchema.options.map((option: AuditRender) => (
            <option key={option} value={option}>
              {renderLabels[option]}
            </option>
          ))}
        </select>
        <p id={`${renderId}-hint`} className="text-sm text-slate-700">
          A rendered page is read as visitors see it, after its scripts have run, with a screenshot of each
          image.
        </p>
      </div>
    </>
  );
}
