import type { AuditReviewState, AuditStatus } from '@altwise/contracts/audit';
import type { AuditImageElement, AuditNameSource, AuditVerdict } from '@altwise/contracts/audit-problems';

/** The site-audit fields' labels, shared with the monitors form. */
export { renderLabels, scopeLabels } from '../../components/site-audit-fields.tsx';

export const statusLabels: Record<AuditStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};

export const verdictLabels: Record<AuditVerdict, string> = {
  fail: 'Fail',
  warning: 'Warning',
  pass: 'Pass',
  decorative: 'Decorative',
};

/** Each check's short name: one table for the web app, the reports and the CLI (contracts). */
export { auditProblemLabels as problemLabels } from '@altwise/contracts/audit-problems';

export const reviewLabels: Record<AuditReviewState | 'none', string> = {
  none: 'No suggestion',
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  edited: 'Edited',
};

export const verdictClasses: Record<AuditVerdict, string> = {
  fail: 'bg-red-100 text-red-900',
  warning: 'bg-amber-100 text-amber-900',
  pass: 'bg-green-100 text-green-900',
  decorative: 'bg-slate-200 text-slate-900',
};

/** Dates and scores as the monitors page shows them too. */
export { formatDate, formatScore } from '../../lib/format.ts';

/** What kind of element an audited image is. */
export const elementLabels: Record<AuditImageElement, string> = {
  img: 'Image (<img>)',
  'input-image': 'Image button (<input type="image">)',
  area: 'Image-map area (<area>)',
  svg: 'Inline SVG (<svg>)',
  'role-img': 'Element with role="img"',
  'css-background': 'CSS background image',
  object: 'Object (<object>)',
};

/** Where an image's accessible name comes from. */
export const nameSourceLabels: Record<AuditNameSource, string> = {
  'aria-labelledby': 'from aria-labelledby',
  'aria-label': 'from aria-label',
  alt: 'from alt',
  title: 'from title',
  'svg-title': 'from the SVG <title>',
  none: 'no accessible name',
};
