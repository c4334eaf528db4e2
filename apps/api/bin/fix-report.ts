import type { UnpublishableCode } from '../src/rules/publishable.ts';
import { xml } from './audit-report.ts';
import type { Notice } from './audit-run.ts';

/**
 * What `altwise fix --format json|sarif|junit` reports (ADR 058, ADR 071): every alt text written (or
 * to write, without --write), every failing image that needs a person's words because the engine had
 * nothing publishable (rules/publishable.ts), and every failing image left alone and why.
 */

export type FixFormat = 'text' | 'json' | 'sarif' | 'junit';

export interface FixedImage {
  page: string;
  line: number;
  column: number | null;
  image: string;
  /** The alt in the file before (null: none). */
  before: string | null;
  after: string;
  /** Written into the file (false: without --write, or the file changed meanwhile). */
  written: boolean;
}

export interface NeedsWordsImage {
  page: string;
  line: number | null;
  column: number | null;
  image: string;
  /** Why no alt was written, as the publishable rule's code (`needs-words`, `kind-and-tone`, …). */
  code: UnpublishableCode;
  reason: string;
}

export interface LeftAloneImage {
  page: string;
  line: number | null;
  image: string;
  reason: string;
}

export interface FixOutcome {
  targets: string[];
  write: boolean;
  changes: FixedImage[];
  needsWords: NeedsWordsImage[];
  leftAlone: LeftAloneImage[];
  notices: Notice[];
}

export interface FixJsonReport {
  version: 1;
  tool: { name: 'altwise'; command: 'fix' };
  targets: string[];
  write: boolean;
  summary: { changes: number; written: number; needsWords: number; leftAlone: number };
  changes: FixedImage[];
  needsWords: NeedsWordsImage[];
  leftAlone: LeftAloneImage[];
  notices: Array<{ level: 'error' | 'note'; page: string | null; line: number | null; message: string }>;
}

export function fixJsonReport(outcome: FixOutcome): FixJsonReport {
  return {
    version: 1,
    tool: { name: 'altwise', command: 'fix' },
    targets: outcome.targets,
    write: outcome.write,
    summary: {
      changes: outcome.changes.length,
      written: outcome.changes.filter((change) => change.written).length,
      needsWords: outcome.needsWords.length,
      leftAlone: outcome.leftAlone.length,
    },
    changes: outcome.changes,
    needsWords: outcome.needsWords,
    leftAlone: outcome.leftAlone,
    notices: outcome.notices.map((notice) => ({
      level: notice.level,
      page: notice.page ?? null,
      line: notice.line ?? null,
      message: notice.message,
    })),
  };
}

const needsWordsRule = {
  id: 'needs-words',
  name: 'NeedsWords',
  shortDescription: { text: 'Needs your words' },
  fullDescription: {
    text: 'The image fails the audit and the engine found nothing it could publish: a person has to write its alt text (WCAG 1.1.1).',
  },
  helpUri: 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html',
  defaultConfiguration: { level: 'error' },
  properties: { tags: ['accessibility', 'WCAG 1.1.1'], wcag: ['1.1.1'] },
};

/** SARIF 2.1.0: one result per image that needs a person's words, at its file and line. */
export function fixSarifReport(outcome: FixOutcome, version: string): object {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'altwise', version, rules: [needsWordsRule] } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${new URL(`file://${process.cwd()}/`).href}` } },
        results: outcome.needsWords.map((item) => ({
          ruleId: 'needs-words',
          ruleIndex: 0,
          level: 'error',
          message: { text: `${item.image} needs your words: ${item.reason}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeURI(item.page), uriBaseId: '%SRCROOT%' },
                ...(item.line
                  ? { region: { startLine: item.line, ...(item.column ? { startColumn: item.column } : {}) } }
                  : {}),
              },
            },
          ],
          properties: { image: item.image, code: item.code },
        })),
        invocations: [
          {
            executionSuccessful: !outcome.notices.some((notice) => notice.level === 'error'),
            toolExecutionNotifications: outcome.notices.map((notice) => ({
              level: notice.level === 'error' ? 'error' : 'note',
              message: { text: notice.message },
            })),
          },
        ],
      },
    ],
  };
}

/**
 * JUnit XML: one test case per image fix looked at; an image that needs a person's words is a
 * failure, one written or to write passes, one left alone is skipped with its reason.
 */
export function fixJunitReport(outcome: FixOutcome): string {
  const cases: string[] = [];
  const name = (page: string, line: number | null, image: string) =>
    xml(`${page}${line ? `:${line}` : ''} ${image}`);
  for (const change of outcome.changes)
    cases.push(
      `    <testcase classname="${xml(change.page)}" name="${name(change.page, change.line, change.image)}"><system-out>${xml(`alt ${change.before === null ? '(none)' : JSON.stringify(change.before)} → ${JSON.stringify(change.after)}${change.written ? '' : ' (not written)'}`)}</system-out></testcase>`,
    );
  for (const item of outcome.needsWords)
    cases.push(
      `    <testcase classname="${xml(item.page)}" name="${name(item.page, item.line, item.image)}"><failure type="needs-words" message="${xml(item.code)}">${xml(`Needs your words: ${item.reason}`)}</failure></testcase>`,
    );
  for (const item of outcome.leftAlone)
    cases.push(
      `    <testcase classname="${xml(item.page)}" name="${name(item.page, item.line, item.image)}"><skipped message="${xml(item.reason)}"/></testcase>`,
    );
  const errors = outcome.notices.filter((notice) => notice.level === 'error');
  for (const notice of errors)
    cases.push(
      `    <testcase classname="altwise" name="${xml(notice.page ?? 'input')}"><error message="${xml(notice.message)}"/></testcase>`,
    );
  const tests = cases.length;
  const failures = outcome.needsWords.length;
  const skipped = outcome.leftAlone.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="altwise fix" tests="${tests}" failures="${failures}" errors="${errors.length}">\n  <testsuite name="altwise fix" tests="${tests}" failures="${failures}" errors="${errors.length}" skipped="${skipped}">\n${cases.join('\n')}${cases.length ? '\n' : ''}  </testsuite>\n</testsuites>\n`;
}
