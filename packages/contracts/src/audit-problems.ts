import { z } from 'zod';

/**
 * The problems an alt-text audit can find, each with its severity and the WCAG 2.2 success
 * criteria it relates to. One table for the checks on the server, the reports and the browser's filters.
 */
export const auditProblemCodes = [
  'missing',
  'file-name',
  'placeholder',
  'vague',
  'link-without-purpose',
  'redundant',
  'repeated',
  'too-long',
  'decorative-with-alt',
  'empty-but-informative',
  // ADR 060: the checks the best checkers make.
  'whitespace-alt',
  'empty-alt-with-title',
  'title-only',
  'label-contradicts-alt',
  'text-mismatch',
  'describes-appearance',
  'redundant-link',
  'announces-medium',
  'keyword-stuffing',
  // A picture set as a block's CSS background, with no text alternative: a person says whether it is decorative.
  'css-image-to-check',
] as const;

export const auditProblemCodeSchema = z.enum(auditProblemCodes);
export type AuditProblemCode = z.infer<typeof auditProblemCodeSchema>;

export const auditSeveritySchema = z.enum(['fail', 'warning']);
export type AuditSeverity = z.infer<typeof auditSeveritySchema>;

export const auditProblemRules: Record<AuditProblemCode, { severity: AuditSeverity; wcag: string[] }> = {
  missing: { severity: 'fail', wcag: ['1.1.1'] },
  'file-name': { severity: 'fail', wcag: ['1.1.1'] },
  placeholder: { severity: 'fail', wcag: ['1.1.1'] },
  vague: { severity: 'fail', wcag: ['1.1.1'] },
  'link-without-purpose': { severity: 'fail', wcag: ['2.4.4', '4.1.2'] },
  redundant: { severity: 'warning', wcag: ['1.1.1'] },
  repeated: { severity: 'warning', wcag: ['1.1.1'] },
  'too-long': { severity: 'warning', wcag: ['1.1.1'] },
  'decorative-with-alt': { severity: 'warning', wcag: ['1.1.1'] },
  'empty-but-informative': { severity: 'fail', wcag: ['1.1.1'] },
  'whitespace-alt': { severity: 'fail', wcag: ['1.1.1'] },
  'empty-alt-with-title': { severity: 'fail', wcag: ['1.1.1'] },
  'title-only': { severity: 'warning', wcag: ['1.1.1'] },
  'label-contradicts-alt': { severity: 'warning', wcag: ['1.1.1', '4.1.2'] },
  'text-mismatch': { severity: 'fail', wcag: ['1.1.1', '1.4.5'] },
  'describes-appearance': { severity: 'fail', wcag: ['1.1.1', '2.4.4'] },
  'redundant-link': { severity: 'warning', wcag: ['1.1.1', '2.4.4'] },
  'announces-medium': { severity: 'warning', wcag: ['1.1.1'] },
  'keyword-stuffing': { severity: 'warning', wcag: ['1.1.1'] },
  'css-image-to-check': { severity: 'warning', wcag: ['1.1.1'] },
};

/**
 * The WCAG 2.2 techniques each check stands on: failure techniques (F…) where WCAG names the fault,
 * else the sufficient technique (G…, H…, ARIA…) whose condition the alt breaks. Empty: W3C's Images
 * tutorial advises it, and no technique names it. Shown on the public accuracy page.
 */
export const auditProblemTechniques: Record<AuditProblemCode, readonly string[]> = {
  missing: ['F65'],
  'file-name': ['F30'],
  placeholder: ['F30'],
  vague: ['F30'],
  'link-without-purpose': ['F89', 'H30'],
  redundant: [],
  repeated: [],
  'too-long': ['G92'],
  'decorative-with-alt': ['F39'],
  'empty-but-informative': ['G94', 'H37'],
  'whitespace-alt': ['H67'],
  'empty-alt-with-title': ['H67'],
  'title-only': ['H37'],
  'label-contradicts-alt': ['ARIA6', 'ARIA10'],
  'text-mismatch': ['G94'],
  'describes-appearance': ['H30'],
  'redundant-link': ['H2'],
  'announces-medium': [],
  'keyword-stuffing': [],
  'css-image-to-check': ['F3'],
};

/** An image's verdict: fail if any fail applies, else warning, else decorative for a correct alt="", else pass. */
export const auditVerdictSchema = z.enum(['pass', 'fail', 'warning', 'decorative']);
export type AuditVerdict = z.infer<typeof auditVerdictSchema>;

/** One problem found on one image, with a one-sentence message naming the evidence. */
export const auditProblemSchema = z.object({
  code: auditProblemCodeSchema,
  severity: auditSeveritySchema,
  wcag: z.array(z.string()),
  message: z.string(),
});
export type AuditProblem = z.infer<typeof auditProblemSchema>;

/** Where an image sits on its page (the W3C alt decision tree's roles). */
export const auditImageRoleSchema = z.enum(['content', 'link', 'button', 'figure']);
export type AuditImageRole = z.infer<typeof auditImageRoleSchema>;

/** Each check's short name in words, as the web app, the reports and the CLI show it. */
export const auditProblemLabels: Record<AuditProblemCode, string> = {
  missing: 'Missing alt',
  'file-name': 'File name as alt',
  placeholder: 'Placeholder alt',
  vague: 'Vague alt',
  'link-without-purpose': 'Link or button without purpose',
  redundant: 'Redundant alt',
  repeated: 'Repeated alt',
  'too-long': 'Too long',
  'decorative-with-alt': 'Decorative image with alt',
  'empty-but-informative': 'Empty alt on an informative image',
  'whitespace-alt': 'Alt of only spaces',
  'empty-alt-with-title': 'Empty alt with a title',
  'title-only': 'Named by title only',
  'label-contradicts-alt': 'ARIA label contradicts alt',
  'text-mismatch': 'Alt differs from the text in the image',
  'describes-appearance': 'Describes the picture, not the purpose',
  'redundant-link': 'Image link beside the same text link',
  'announces-medium': 'Announces “image of”',
  'keyword-stuffing': 'Keyword stuffing',
  'css-image-to-check': 'CSS image to check',
};

/**
 * What kind of element an audited image is: an `<img>` (also in a `<picture>`), an
 * `<input type="image">`, an `<area>` of an image map, an inline `<svg>`, an element with
 * `role="img"`, a CSS background image that carries information, or an `<object>` showing an image.
 */
export const auditImageElementSchema = z.enum([
  'img',
  'input-image',
  'area',
  'svg',
  'role-img',
  'css-background',
  'object',
]);
export type AuditImageElement = z.infer<typeof auditImageElementSchema>;

/**
 * Where an image's accessible name comes from, by the W3C accessible-name computation's order:
 * `aria-labelledby` > `aria-label` > `alt` (or an svg's `<title>`) > `title`; `none` when it has no name.
 */
export const auditNameSourceSchema = z.enum([
  'aria-labelledby',
  'aria-label',
  'alt',
  'title',
  'svg-title',
  'none',
]);
export type AuditNameSource = z.infer<typeof auditNameSourceSchema>;
