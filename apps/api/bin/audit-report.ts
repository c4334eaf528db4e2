import {
  type AuditImageElement,
  type AuditProblemCode,
  auditProblemCodes,
  auditProblemLabels,
  auditProblemRules,
} from '@altwise/contracts/audit-problems';
import type { AltOrigin } from '@altwise/contracts/provenance';
import { auditScore } from '../src/rules/checks.ts';
import type { AuditedImage, AuditedPage, Notice } from './audit-run.ts';
import { displayPath } from './audit-sources.ts';

/**
 * The four ways `altwise audit` reports: a readable text, JSON (shape below, version 1), SARIF 2.1.0
 * for code-scanning tools, and JUnit XML for CI test reports. Every format lists every image with a
 * problem, in page order, with its place (`file:line:column` for a folder, the page URL for a site).
 */

export type FailOn = 'fail' | 'warning';

/** One image in the JSON report. */
export interface JsonImage {
  page: string;
  line: number | null;
  column: number | null;
  /** The image's file (relative path) for a folder's local image, else its address. */
  image: string;
  element: AuditImageElement;
  role: string;
  alt: string | null;
  /** Where the alt came from (ADR 057): `human` (the page's author wrote it), null without an alt. */
  origin: AltOrigin | null;
  verdict: 'pass' | 'fail' | 'warning' | 'decorative';
  problems: Array<{ code: AuditProblemCode; severity: 'fail' | 'warning'; wcag: string[]; message: string }>;
}

export interface JsonReport {
  version: 1;
  tool: { name: 'altwise'; command: 'audit' };
  targets: string[];
  summary: {
    pages: number;
    images: number;
    pass: number;
    fail: number;
    warning: number;
    decorative: number;
    /** Share of non-decorative images that pass, 0..1; null when there are none. */
    score: number | null;
  };
  images: JsonImage[];
  notices: Array<{ level: 'error' | 'note'; page: string | null; line: number | null; message: string }>;
}

const wcagLinks: Record<string, string> = {
  '1.1.1': 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html',
  '2.4.4': 'https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html',
  '4.1.2': 'https://www.w3.org/WAI/WCAG22/Understanding/name-role-value.html',
};

/** The audit's rule (ADR 057): an alt found in the page or file is a person's words. */
export const originOf = (image: AuditedImage): AltOrigin | null =>
  image.facts.alt !== null ? 'human' : null;

export function imageName(image: AuditedImage): string {
  return image.localFile ? displayPath(image.localFile) : image.facts.src;
}

/** Whether the run found images at the `--fail-on` level. */
export function foundAtLevel(pages: AuditedPage[], failOn: FailOn): boolean {
  return pages.some((page) =>
    page.images.some(
      (image) => image.verdict === 'fail' || (failOn === 'warning' && image.verdict === 'warning'),
    ),
  );
}

export function toJsonReport(targets: string[], pages: AuditedPage[], notices: Notice[]): JsonReport {
  const counts = { pass: 0, fail: 0, warning: 0, decorative: 0 };
  const images: JsonImage[] = [];
  for (const page of pages)
    for (const image of page.images) {
      counts[image.verdict] += 1;
      images.push({
        page: page.page,
        line: image.located?.line ?? null,
        column: image.located?.column ?? null,
        image: imageName(image),
        element: image.facts.element,
        role: image.facts.role,
        alt: image.facts.alt,
        origin: originOf(image),
        verdict: image.verdict,
        problems: image.problems.map(({ code, severity, wcag, message }) => ({
          code,
          severity,
          wcag,
          message,
        })),
      });
    }
  return {
    version: 1,
    tool: { name: 'altwise', command: 'audit' },
    targets,
    summary: {
      pages: pages.length,
      images: images.length,
      ...counts,
      score: auditScore(images.map((image) => image.verdict)),
    },
    images,
    notices: notices.map((notice) => ({
      level: notice.level,
      page: notice.page ?? null,
      line: notice.line ?? null,
      message: notice.message,
    })),
  };
}

const where = (page: string, image: AuditedImage) =>
  image.located ? `${page}:${image.located.line}:${image.located.column}` : page;

/** The readable report: every image with a problem, then notices, then one summary line. */
export function textReport(targets: string[], pages: AuditedPage[], notices: Notice[]): string {
  const report = toJsonReport(targets, pages, notices);
  const out: string[] = [];
  for (const page of pages)
    for (const image of page.images) {
      if (image.problems.length === 0) continue;
      out.push(`${where(page.page, image)}  ${image.verdict.toUpperCase()}  ${imageName(image)}`);
      for (const problem of image.problems)
        out.push(
          `  ${problem.severity === 'fail' ? '✗' : '!'} ${problem.code} (WCAG ${problem.wcag.join(', ')}): ${problem.message}`,
        );
    }
  for (const notice of report.notices) {
    // A message that starts with its file already says where it is.
    const place =
      notice.page && !notice.message.startsWith(notice.page)
        ? `${notice.page}${notice.line ? `:${notice.line}` : ''}: `
        : '';
    out.push(`${notice.level === 'error' ? 'error' : 'note'}: ${place}${notice.message}`);
  }
  const { summary } = report;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const score = summary.score === null ? '' : `, score ${Math.round(summary.score * 100)}%`;
  out.push(
    `${plural(summary.pages, 'page')}, ${plural(summary.images, 'image')}: ${summary.fail} fail, ${summary.warning} warning, ${summary.pass} pass, ${summary.decorative} decorative${score}.`,
  );
  return `${out.join('\n')}\n`;
}

/** SARIF 2.1.0: one rule per check code with its WCAG criteria, one result per problem found. */
export function sarifReport(pages: AuditedPage[], notices: Notice[], version: string): object {
  const rules = auditProblemCodes.map((code) => {
    const rule = auditProblemRules[code];
    return {
      id: code,
      name: auditProblemLabels[code].replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) =>
        (c ?? '').toUpperCase(),
      ),
      shortDescription: { text: auditProblemLabels[code] },
      fullDescription: { text: `${auditProblemLabels[code]} (WCAG ${rule.wcag.join(', ')}).` },
      helpUri: wcagLinks[rule.wcag[0] ?? ''] ?? 'https://www.w3.org/WAI/WCAG22/Understanding/',
      defaultConfiguration: { level: rule.severity === 'fail' ? 'error' : 'warning' },
      properties: {
        tags: ['accessibility', ...rule.wcag.map((criterion) => `WCAG ${criterion}`)],
        wcag: rule.wcag,
      },
    };
  });
  const results = [];
  for (const page of pages)
    for (const image of page.images)
      for (const problem of image.problems) {
        const physical = page.isFile
          ? {
              artifactLocation: { uri: encodeURI(page.page), uriBaseId: '%SRCROOT%' },
              ...(image.located
                ? { region: { startLine: image.located.line, startColumn: image.located.column } }
                : {}),
            }
          : { artifactLocation: { uri: page.page } };
        results.push({
          ruleId: problem.code,
          ruleIndex: auditProblemCodes.indexOf(problem.code),
          level: problem.severity === 'fail' ? 'error' : 'warning',
          message: { text: problem.message },
          locations: [{ physicalLocation: physical }],
          properties: {
            image: imageName(image),
            alt: image.facts.alt,
            origin: originOf(image),
            wcag: problem.wcag,
          },
        });
      }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'altwise',
            version,
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${new URL(`file://${process.cwd()}/`).href}` } },
        results,
        invocations: [
          {
            executionSuccessful: !notices.some((notice) => notice.level === 'error'),
            toolExecutionNotifications: notices.map((notice) => ({
              level: notice.level === 'error' ? 'error' : 'note',
              message: { text: notice.message },
              ...(notice.page && pages.some((page) => page.isFile)
                ? {
                    locations: [
                      {
                        physicalLocation: {
                          artifactLocation: { uri: encodeURI(notice.page) },
                          ...(notice.line ? { region: { startLine: notice.line } } : {}),
                        },
                      },
                    ],
                  }
                : {}),
            })),
          },
        ],
      },
    ],
  };
}

export const xml = (text: string) =>
  text
    // Characters XML 1.0 cannot hold at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters XML refuses is the point
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * JUnit XML: one test suite per page, one test case per image (named by its place and file); a
 * failure for a `fail` image, and for a `warning` image too with `--fail-on warning`. An input that
 * could not be read is a test case with an error.
 */
export function junitReport(pages: AuditedPage[], notices: Notice[], failOn: FailOn): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const page of pages) {
    const cases: string[] = [];
    let pageFailures = 0;
    for (const image of page.images) {
      const failing = image.verdict === 'fail' || (failOn === 'warning' && image.verdict === 'warning');
      const name = `${where(page.page, image)} ${imageName(image)}`;
      const body = image.problems
        .map((p) => `${p.code} (${p.severity}, WCAG ${p.wcag.join(', ')}): ${p.message}`)
        .join('\n');
      if (failing) {
        pageFailures += 1;
        const codes = image.problems.map((p) => p.code).join(', ');
        cases.push(
          `    <testcase classname="${xml(page.page)}" name="${xml(name)}"><failure type="${xml(image.verdict)}" message="${xml(codes)}">${xml(body)}</failure></testcase>`,
        );
      } else if (body) {
        cases.push(
          `    <testcase classname="${xml(page.page)}" name="${xml(name)}"><system-out>${xml(body)}</system-out></testcase>`,
        );
      } else cases.push(`    <testcase classname="${xml(page.page)}" name="${xml(name)}"/>`);
    }
    tests += page.images.length;
    failures += pageFailures;
    suites.push(
      `  <testsuite name="${xml(page.page)}" tests="${page.images.length}" failures="${pageFailures}" errors="0">\n${cases.join('\n')}${cases.length ? '\n' : ''}  </testsuite>`,
    );
  }
  const errors = notices.filter((notice) => notice.level === 'error');
  if (errors.length > 0) {
    const cases = errors.map(
      (notice) =>
        `    <testcase classname="altwise" name="${xml(notice.page ?? 'input')}"><error message="${xml(notice.message)}"/></testcase>`,
    );
    tests += errors.length;
    suites.push(
      `  <testsuite name="inputs" tests="${errors.length}" failures="0" errors="${errors.length}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="altwise audit" tests="${tests}" failures="${failures}" errors="${errors.length}">\n${suites.join('\n')}\n</testsuites>\n`;
}
