import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_AUDIT_MAX_PAGES, MAX_AUDIT_PAGES } from '@altwise/contracts/audit';
import { assertPublicAddress, parseFetchableUrl, SafeFetchError } from '../src/net/safe-fetch.ts';
import type { PageSandbox } from '../src/pages/page-sandbox.ts';
import {
  type FailOn,
  foundAtLevel,
  junitReport,
  sarifReport,
  textReport,
  toJsonReport,
} from './audit-report.ts';
import {
  type AuditedPage,
  auditSite,
  auditSourcePages,
  createPageReader,
  createPixelReader,
  type Notice,
  type PageFile,
  type PixelReader,
} from './audit-run.ts';
import { displayPath, listPageFiles, pageKindOf } from './audit-sources.ts';
import type { CliIo } from './cli-io.ts';
import { terminalJson, terminalText } from './terminal-text.ts';

export const auditUsage = `Usage: altwise audit <url|folder|file>... [options]

Runs the site audit's checks (missing, file-name, placeholder, vague, link-without-purpose, redundant,
repeated, too-long, decorative-with-alt, empty-but-informative) on a live site or on the HTML and
Markdown files of a folder and its sub-folders (images resolved relative to each file, "/" at the
folder; for a file given alone, "/" is the working folder). Reports point at file:line:column for
files and at the page URL for sites.

Options:
  --format <f>        text (default), json, sarif (SARIF 2.1.0) or junit (JUnit XML)
  --fail-on <level>   exit 1 when an image fails (fail) or fails or warns (warning)
  --max-pages <n>     pages of a site to audit, 1 to ${MAX_AUDIT_PAGES} (default ${DEFAULT_AUDIT_MAX_PAGES})
  --allow-private     allow a site on a private or local address (a server on this machine)
  --no-pixels         judge the HTML alone: do not read the images' pixels with the offline OCR
  -h, --help          show this help

Exit codes: 0 done (nothing at the --fail-on level), 1 images at the --fail-on level, 2 a usage
error or an input that could not be audited (said in words on stderr).`;

export class CommandUsageError extends Error {}

interface AuditSettings {
  targets: string[];
  format: 'text' | 'json' | 'sarif' | 'junit';
  failOn?: FailOn;
  maxPages: number;
  allowPrivate: boolean;
  pixels: boolean;
}

function readAuditSettings(argv: string[]): AuditSettings | 'help' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CommandUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0)
    throw new CommandUsageError('Give at least one URL, folder or file to audit.');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'sarif' && format !== 'junit')
    throw new CommandUsageError(`--format must be text, json, sarif or junit, not "${format}".`);
  const failOn = values['fail-on'];
  if (failOn !== undefined && failOn !== 'fail' && failOn !== 'warning')
    throw new CommandUsageError(`--fail-on must be fail or warning, not "${failOn}".`);
  let maxPages = DEFAULT_AUDIT_MAX_PAGES;
  if (values['max-pages'] !== undefined) {
    maxPages = Number(values['max-pages']);
    if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > MAX_AUDIT_PAGES)
      throw new CommandUsageError(`--max-pages must be a whole number from 1 to ${MAX_AUDIT_PAGES}.`);
  }
  return {
    targets: positionals,
    format,
    ...(failOn ? { failOn } : {}),
    maxPages,
    allowPrivate: values['allow-private'],
    pixels: !values['no-pixels'],
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      'fail-on': { type: 'string' },
      'max-pages': { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      'no-pixels': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

export const looksLikeUrl = (target: string) => /^[a-z][a-z\d+.-]*:\/\//i.test(target);

/**
 * The page files of the folder and file targets (not read yet). A missing target or a file that is
 * not HTML or Markdown is a usage error (exit 2 before anything runs).
 */
export async function readFolderTargets(targets: string[], notices: Notice[]): Promise<PageFile[]> {
  const pageFiles: PageFile[] = [];
  for (const target of targets) {
    const absolute = resolve(target);
    const info = await stat(absolute).catch(() => undefined);
    if (!info)
      throw new CommandUsageError(
        `${target} does not exist: give a folder, an HTML or Markdown file, or an http(s) URL.`,
      );
    if (info.isDirectory()) {
      const problems: Array<{ path: string; message: string }> = [];
      const listed = await listPageFiles(absolute, problems);
      for (const problem of problems)
        notices.push({ level: 'error', page: problem.path, message: problem.message });
      if (listed.over > 0)
        notices.push({
          level: 'note',
          message: `${target} holds more than ${listed.files.length} pages; ${listed.over} were left out.`,
        });
      if (listed.files.length === 0)
        notices.push({
          level: 'note',
          page: displayPath(absolute),
          message: `${target} holds no HTML or Markdown file.`,
        });
      for (const file of listed.files) pageFiles.push({ absolute: file, root: absolute });
    } else {
      if (!pageKindOf(absolute))
        throw new CommandUsageError(`${target} is not an HTML (.html, .htm) or Markdown (.md) file.`);
      // A file given alone is served from the working folder when it is inside it ("/" is there),
      // else from its own folder.
      const cwd = process.cwd();
      pageFiles.push({ absolute, root: absolute.startsWith(cwd + sep) ? cwd : dirname(absolute) });
    }
  }
  return pageFiles;
}

/** Refuses a site on a private address before anything is fetched, in words that name the option. */
async function checkSiteTarget(target: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = parseFetchableUrl(target);
    await assertPublicAddress(url, { allowPrivate });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    if (error.code === 'REFUSED_ADDRESS')
      throw new CommandUsageError(
        `${target} is on a private or local address, which altwise does not fetch unless you pass --allow-private (for a server on this machine or your network).`,
      );
    throw new CommandUsageError(`${target}: ${error.message}`);
  }
  return url;
}

/** The CLI's version, as SARIF's tool.driver.version. */
export const cliVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The page reader and the pixel check's OCR, kept by a caller that audits many times. */
export interface AuditReaders {
  pages: PageSandbox;
  pixels: PixelReader;
}

/** What an audit run is asked to read and how. */
export interface AuditTargets {
  /** http(s) URLs of sites, folders, and HTML or Markdown files. */
  targets: string[];
  maxPages: number;
  allowPrivate: boolean;
  pixels: boolean;
}

/**
 * Audits the sites, folders and files named, the pages' notices added to `notices`. Throws
 * CommandUsageError, before anything is read, for a site on a private address (without
 * allowPrivate), a target that does not exist or a file that is not a page. A long-lived caller
 * hands in its `readers` so the page threads and the OCR start once; else they are made for the run.
 */
export async function auditTargets(
  settings: AuditTargets,
  notices: Notice[],
  readers?: AuditReaders,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AuditedPage[]> {
  const sites: URL[] = [];
  const folders: string[] = [];
  for (const target of settings.targets) {
    if (looksLikeUrl(target)) sites.push(await checkSiteTarget(target, settings.allowPrivate));
    else folders.push(target);
  }
  const files = await readFolderTargets(folders, notices);

  const pages = readers?.pages ?? createPageReader();
  const pixels: PixelReader | undefined = settings.pixels
    ? (readers?.pixels ?? createPixelReader(env))
    : undefined;
  const audited: AuditedPage[] = [];
  try {
    audited.push(...(await auditSourcePages(files, { pages, ...(pixels ? { pixels } : {}), notices })));
    for (const site of sites)
      audited.push(
        ...(await auditSite(site, {
          pages,
          ...(pixels ? { pixels } : {}),
          notices,
          maxPages: settings.maxPages,
          allowPrivate: settings.allowPrivate,
        })),
      );
  } finally {
    if (!readers) {
      await pages.close();
      await pixels?.close();
    }
  }
  return audited;
}

export async function runAudit(argv: string[], io: CliIo): Promise<number> {
  let settings: AuditSettings | 'help';
  try {
    settings = readAuditSettings(argv);
  } catch (error) {
    if (!(error instanceof CommandUsageError)) throw error;
    io.stderr.write(`altwise audit: ${error.message}\n\n${auditUsage}\n`);
    return 2;
  }
  if (settings === 'help') {
    io.stdout.write(`${auditUsage}\n`);
    return 0;
  }
  const notices: Notice[] = [];
  let audited: AuditedPage[];
  try {
    audited = await auditTargets(settings, notices, undefined, io.env);
  } catch (error) {
    if (!(error instanceof CommandUsageError)) throw error;
    io.stderr.write(`altwise audit: ${error.message}\n`);
    return 2;
  }

  // A page's alt texts and names reach the terminal with their control characters shown, in every
  // format (JUnit's XML and SARIF's JSON escape them on their own; JSON leaves C1 raw).
  const output =
    settings.format === 'json'
      ? terminalJson(`${JSON.stringify(toJsonReport(settings.targets, audited, notices), null, 2)}\n`)
      : settings.format === 'sarif'
        ? terminalJson(`${JSON.stringify(sarifReport(audited, notices, cliVersion), null, 2)}\n`)
        : settings.format === 'junit'
          ? junitReport(audited, notices, settings.failOn ?? 'fail')
          : terminalText(textReport(settings.targets, audited, notices));
  io.stdout.write(output);
  // Errors go to stderr in every format, so that a CI log says why the run stopped.
  if (settings.format !== 'text')
    for (const notice of notices)
      if (notice.level === 'error') io.stderr.write(terminalText(`altwise audit: ${notice.message}\n`));
  if (notices.some((notice) => notice.level === 'error')) return 2;
  if (settings.failOn && foundAtLevel(audited, settings.failOn)) return 1;
  return 0;
}
