import { chmod, lstat, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { languageTagOf } from '@altwise/contracts/page-context';
import { createTwoFilesPatch } from 'diff';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { readEmbeddedText, withEmbeddedAlt } from '../src/engines/embedded-text.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import type { AltTextEngine, AltTextResult, PageContext } from '../src/engines/types.ts';
import { engineContext } from '../src/modules/audit/engine-context.ts';
import { normaliseForComparison } from '../src/rules/alt-rules.ts';
import { checkPageImages } from '../src/rules/checks.ts';
import { judgePublishable, type UnpublishableCode, unpublishableMessages } from '../src/rules/publishable.ts';
import { type AuditReaders, CommandUsageError, cliVersion, readFolderTargets } from './audit-command.ts';
import { imageName } from './audit-report.ts';
import {
  type AuditedImage,
  type AuditedPage,
  auditSourcePages,
  createPageReader,
  createPixelReader,
  type Notice,
  type PageFile,
} from './audit-run.ts';
import {
  type AltEdit,
  lineIndex,
  OutsideFolderError,
  positionOf,
  readFolderImage,
  type SourcePage,
} from './audit-sources.ts';
import type { CliIo } from './cli-io.ts';
import {
  type FixFormat,
  type FixOutcome,
  fixJsonReport,
  fixJunitReport,
  fixSarifReport,
  type LeftAloneImage,
  type NeedsWordsImage,
} from './fix-report.ts';
import { mapInOrder } from './map-in-order.ts';
import { terminalJson, terminalText } from './terminal-text.ts';

export const fixUsage = `Usage: altwise fix <folder|file>... [--write] [--review]

Audits the HTML and Markdown files like altwise audit, describes every image that fails with the
same engine as altwise describe (offline by default), using the page around it as context, and
writes the alt text in place: the alt attribute's value of <img> and <input type=image>, the label of
a Markdown ![alt](src). Nothing else in the file changes. Images that pass or only warn are never
touched, and neither are images outside the folder, role="img" elements and images named by
aria-label (their alt is not what is read out). An alt text is written only when it may be
published: when the engine found nothing in or around an image to stand behind, the image is listed
as needing your words, with the reason, and nothing is written for it. Links are never written
through, and a linked image whose file is outside the folder is never read.

Options:
  --write            change the files (without it, print a unified diff and change nothing)
  --review           ask for each change: y(es), n(o), e(dit) to type your own, q(uit) to stop asking;
                     with --write the accepted changes are written, without it they are printed as a diff
  --language <tag>   language of the alt text (BCP 47: en, fr, ja…); without it, each image's place
                     says (its lang attribute or its nearest ancestor's, else <html lang>)
  --format <f>       text (default), json, sarif or junit: the report on stdout instead of the diff
  --no-pixels        judge the HTML alone, as altwise audit --no-pixels
  -h, --help         show this help

Exit codes: 0 done, 2 a usage error or an input that could not be read.
The engine comes from the environment (ALT_TEXT_ENGINE=offline|openai, OPENAI_*, ENGINE_*).`;

interface FixSettings {
  targets: string[];
  write: boolean;
  review: boolean;
  pixels: boolean;
  format: FixFormat;
  /** --language: the alt text's language for every image, over each page's own. */
  language?: string;
}

function readFixSettings(argv: string[]): FixSettings | 'help' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CommandUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0)
    throw new CommandUsageError('Give the folder (or HTML or Markdown files) to fix.');
  const url = positionals.find((target) => /^[a-z][a-z\d+.-]*:\/\//i.test(target));
  if (url) throw new CommandUsageError(`${url} is a URL: fix edits files, so give a folder or a file.`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'sarif' && format !== 'junit')
    throw new CommandUsageError(`--format must be text, json, sarif or junit, not "${format}".`);
  if (format !== 'text' && values.review)
    throw new CommandUsageError('--review asks on the terminal; use it with the text format.');
  const language = values.language === undefined ? undefined : languageTagOf(values.language);
  if (values.language !== undefined && !language)
    throw new CommandUsageError(
      `--language must be a BCP 47 tag such as en, fr or pt-BR, not "${values.language}".`,
    );
  return {
    targets: positionals,
    write: values.write,
    review: values.review,
    pixels: !values['no-pixels'],
    format,
    ...(language ? { language } : {}),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      write: { type: 'boolean', default: false },
      review: { type: 'boolean', default: false },
      'no-pixels': { type: 'boolean', default: false },
      format: { type: 'string' },
      language: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

/** One alt text to write: which bytes of which file, and what the audit and the engine said. */
export interface Change {
  source: SourcePage;
  image: AuditedImage;
  edit: AltEdit;
  line: number;
  /** What the file says now (null: no alt attribute). */
  before: string | null;
  after: string;
}

/** Why an image that fails is left alone, or undefined when it can be fixed. */
function cannotFix(image: AuditedImage): string | undefined {
  const edit = image.located?.edit;
  if (image.facts.element === 'role-img')
    return 'a role="img" element is named by aria-label, which needs words written by hand';
  if (!edit) return 'its bytes could not be found in the file';
  if (edit.kind === 'html' && edit.ariaNamed)
    return 'it is named by aria-label or aria-labelledby, which wins over alt';
  if (!image.localFile) return 'the image is not in the folder, and fix reads no network';
  return undefined;
}

/**
 * The engine's page context for an image: what the audit read around it, as the product's fix gives,
 * in the language --language names, else the one of the image's place (ADR 071).
 */
function contextOf(page: AuditedPage, image: AuditedImage, language: string | undefined): PageContext {
  const { facts } = image;
  const context = engineContext(facts, {
    pageTitle: page.title,
    existingAlt: facts.alt ?? facts.ariaLabel,
    role: facts.role,
    fileName: image.localFile ? basename(image.localFile) : undefined,
  });
  return language ? { ...context, language } : context;
}

const primaryLanguage = (tag: string) => (tag.split('-')[0] ?? tag).toLowerCase();

/**
 * The language the engine wrote in when it is not the one of the image's place (ADR 071): an alt in
 * another language than its page is read out wrongly. Text read from the image as it is, a person's
 * words and an empty alt have no language of the engine's.
 */
function otherLanguage(result: AltTextResult, placement: string | undefined): string | undefined {
  if (!placement || result.decorative || !result.altText.trim()) return undefined;
  const written = result.signals?.language || 'en';
  if (primaryLanguage(written) === primaryLanguage(placement)) return undefined;
  if (result.origin === 'human' || result.origin === 'embedded') return undefined;
  const asRead = result.textInImage ? normaliseForComparison(result.textInImage) : '';
  if (asRead && normaliseForComparison(result.altText) === asRead) return undefined;
  return written;
}

/**
 * Whether the engine's answer may be written (rules/publishable.ts, ADR 067): the engine's own
 * needs-words answer, else the publishable rule on its text. A filler sentence is never written.
 */
function needsWords(
  result: AltTextResult,
  page: AuditedPage,
  context: PageContext,
): { code: UnpublishableCode; reason: string } | undefined {
  if (result.needsWords)
    return { code: 'needs-words', reason: result.needsWordsReason ?? unpublishableMessages['needs-words'] };
  const language = otherLanguage(result, context.language);
  if (language)
    return {
      code: 'needs-words',
      reason: `The page is in ${context.language} and the engine wrote ${language}: it needs your words in ${context.language}.`,
    };
  const verdict = judgePublishable({
    altText: result.decorative ? '' : result.altText,
    decorative: result.decorative,
    origin: result.origin ?? 'ai',
    reasons: result.reasons,
    context: {
      pageTitle: page.title,
      ...(context.heading ? { heading: context.heading } : {}),
      ...(context.fileName ? { fileName: context.fileName } : {}),
      ...(context.siteName ? { siteName: context.siteName } : {}),
    },
  });
  return verdict.publishable ? undefined : { code: verdict.code, reason: verdict.message };
}

/** The problems the page's checks still find on the image with `alt` in place (a fail means no). */
function stillFails(page: AuditedPage, image: AuditedImage, alt: string): string[] {
  const facts = page.images.map((other) => (other === image ? { ...other.facts, alt } : other.facts));
  const verdict = checkPageImages(facts)[page.images.indexOf(image)];
  return verdict?.verdict === 'fail'
    ? verdict.problems.filter((p) => p.severity === 'fail').map((p) => p.code)
    : [];
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};

/** The bytes that replace the edit's range so that the alt text reads `after`. */
export function altReplacement(edit: AltEdit, after: string): { start: number; end: number; text: string } {
  if (edit.kind === 'markdown') {
    // Backslash escapes keep the label one plain text (CommonMark escapes any ASCII punctuation).
    return { start: edit.start, end: edit.end, text: after.replace(/[\\[\]*_`<>&!]/g, '\\$&') };
  }
  if (edit.alt?.quote) {
    const quote = edit.alt.quote;
    const text = after.replace(quote === '"' ? /[&"<>]/g : /[&'<>]/g, (c) => htmlEscapes[c] ?? c);
    return { start: edit.alt.start, end: edit.alt.end, text };
  }
  const value = `"${after.replace(/[&"<>]/g, (c) => htmlEscapes[c] ?? c)}"`;
  // A bare `alt` gets its value; an unquoted one is replaced by a quoted one; none is inserted.
  if (edit.alt?.bare) return { start: edit.alt.end, end: edit.alt.end, text: `=${value}` };
  if (edit.alt) return { start: edit.alt.start, end: edit.alt.end, text: value };
  return { start: edit.insertAt, end: edit.insertAt, text: ` alt=${value}` };
}

function applyChanges(text: string, changes: Change[]): string {
  const pieces = changes
    .map((change) => altReplacement(change.edit, change.after))
    .sort((a, b) => b.start - a.start);
  let result = text;
  for (const piece of pieces) result = result.slice(0, piece.start) + piece.text + result.slice(piece.end);
  return result;
}

function patchOf(source: SourcePage, changes: Change[]): string {
  const patch = createTwoFilesPatch(
    `a/${source.path}`,
    `b/${source.path}`,
    source.text,
    applyChanges(source.text, changes),
    undefined,
    undefined,
    { context: 3 },
  );
  // Drop the "=====" line the library starts with: git and patch read the rest.
  return patch.replace(/^=+\n/, '');
}

/** Asks y/n/e/q on the terminal (or piped stdin) for each change; undefined answers end as quit. */
async function reviewChanges(changes: Change[], io: CliIo): Promise<Change[]> {
  const input = createInterface({ input: io.stdin, terminal: false });
  const lines = input[Symbol.asyncIterator]();
  const ask = async (question: string): Promise<string | undefined> => {
    io.stderr.write(question);
    const next = await lines.next();
    return next.done ? undefined : next.value.trim();
  };
  const accepted: Change[] = [];
  try {
    for (let n = 0; n < changes.length; n++) {
      const change = changes[n] as Change;
      io.stderr.write(
        terminalText(
          `\n${change.source.path}:${change.line} ${imageName(change.image)}\n  ${change.image.problems.map((p) => p.message).join('\n  ')}\n  - alt: ${change.before === null ? '(none)' : JSON.stringify(change.before)}\n  + alt: ${JSON.stringify(change.after)}\n`,
        ),
      );
      let answered = false;
      while (!answered) {
        const answer = (
          await ask(`Write this alt text? [y]es, [n]o, [e]dit, [q]uit (${n + 1}/${changes.length}) `)
        )?.toLowerCase();
        if (answer === undefined || answer === 'q' || answer === 'quit') {
          const left = changes.length - n;
          io.stderr.write(
            `\nStopped: ${left} change${left === 1 ? '' : 's'} left unanswered and not made.\n`,
          );
          return accepted;
        }
        if (answer === 'y' || answer === 'yes') {
          accepted.push(change);
          answered = true;
        } else if (answer === 'n' || answer === 'no') answered = true;
        else if (answer === 'e' || answer === 'edit') {
          const own = await ask('Alt text: ');
          if (own === undefined) continue;
          accepted.push({ ...change, after: own });
          answered = true;
        } else io.stderr.write('Answer y, n, e or q.\n');
      }
    }
  } finally {
    input.close();
  }
  return accepted;
}

/**
 * Writes a file through a temporary file and a rename, only when it still holds what was read. A page
 * that is a symbolic link is refused: the rename would put a regular file where the link was, and
 * writing through it would change a file that may be outside the folder (ADR 071).
 */
async function writeChanged(source: SourcePage, text: string): Promise<string | undefined> {
  const link = await lstat(source.absolute).catch(() => undefined);
  if (link?.isSymbolicLink())
    return `${source.path} is a symbolic link, and fix does not write through links, so it was not written; fix the file it points to instead.`;
  const now = await readFile(source.absolute, 'utf8').catch(() => undefined);
  if (now !== source.text)
    return `${source.path} changed while altwise was working, so it was not written; run fix again.`;
  const info = await stat(source.absolute);
  const temporary = `${source.absolute}.altwise-${process.pid}.tmp`;
  // Created exclusively: a link planted at the temporary name is not followed.
  await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
  await chmod(temporary, info.mode & 0o7777);
  await rename(temporary, source.absolute);
  return undefined;
}

/** The engine fix describes with: models loaded, the largest image it takes, images at a time. */
export interface Describer {
  engine: AltTextEngine;
  maxBytes: number;
  concurrency: number;
}

/** Lends `run` an engine: the CLI makes one per run, the MCP server keeps one for its life. */
export type EngineUse = <T>(run: (describer: Describer) => Promise<T>) => Promise<T>;

/** The CLI's engine: made from the environment, warmed, used once and closed. */
export const engineForRun =
  (env: NodeJS.ProcessEnv): EngineUse =>
  async (run) => {
    // The CLI is an entry point like server.ts: it reads the environment through the engine's schema.
    const options = engineOptionsFromEnv(env);
    const engine = createAltTextEngine(options);
    try {
      await engine.warmUp();
      const concurrency = Math.min(4, options.offline.maxQueue + options.offline.workers);
      return await run({ engine, maxBytes: options.limits.maxInputBytes, concurrency });
    } finally {
      await engine.close();
    }
  };

/** The engine of a run in this process's own environment. */
export const engineForOneRun: EngineUse = engineForRun(process.env);

async function describeAll(
  { engine, maxBytes, concurrency }: Describer,
  work: Array<{ page: AuditedPage; image: AuditedImage }>,
  language: string | undefined,
) {
  return mapInOrder(work, concurrency, async ({ page, image }) => {
    try {
      const bytes = await readFolderImage(image.folder as string, image.localFile as string, maxBytes);
      if (!bytes) return { page, image, error: 'the image is too large to describe or not a file' };
      // Alt text embedded in the file is the human's alt (ADR 055), as in altwise describe.
      const embedded = await readEmbeddedText(bytes);
      const context = withEmbeddedAlt(contextOf(page, image, language), embedded);
      const options = { context, ...(context.language ? { language: context.language } : {}) };
      return { page, image, context, result: await engine.describeImage(bytes, options) };
    } catch (error) {
      if (error instanceof OutsideFolderError) return { page, image, error: error.message };
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      return { page, image, error: missing ? 'the image file does not exist' : (error as Error).message };
    }
  });
}

/**
 * Audits the page files as fix reads them (their text kept, to edit), with the pixel check unless
 * `pixels` is false, with `shared`'s readers when given. Pages that cannot be read are error notices.
 */
export async function auditForFix(
  files: PageFile[],
  pixels: boolean,
  notices: Notice[],
  shared?: AuditReaders,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AuditedPage[]> {
  const pages = shared?.pages ?? createPageReader();
  const reader = pixels ? (shared?.pixels ?? createPixelReader(env)) : undefined;
  try {
    return await auditSourcePages(files, {
      pages,
      ...(reader ? { pixels: reader } : {}),
      notices,
      keepSources: true,
    });
  } finally {
    if (!shared) {
      await pages.close();
      await reader?.close();
    }
  }
}

/** What fix would do: the alt texts to write, the images that need a person's words, the rest. */
export interface FixProposal {
  changes: Change[];
  needsWords: NeedsWordsImage[];
  leftAlone: LeftAloneImage[];
}

/**
 * Describes every failing image that can be fixed and keeps each publishable alt text that passes
 * the checks as a change; nothing is written here. `say` hears each image left alone or needing
 * words, in words for a terminal, as it is decided.
 */
export async function proposeFixes(
  audited: AuditedPage[],
  options: { language?: string; useEngine: EngineUse; say?: (line: string) => void },
): Promise<FixProposal> {
  const { say } = options;
  const leftAlone: LeftAloneImage[] = [];
  const needsYourWords: NeedsWordsImage[] = [];
  const leave = (page: AuditedPage, image: AuditedImage, reason: string, shown: string) => {
    leftAlone.push({ page: page.page, line: image.located?.line ?? null, image: imageName(image), reason });
    say?.(shown);
  };

  const work: Array<{ page: AuditedPage; image: AuditedImage }> = [];
  for (const page of audited)
    for (const image of page.images) {
      if (image.verdict !== 'fail') continue;
      const why = cannotFix(image);
      const place = `${page.page}${image.located ? `:${image.located.line}` : ''}`;
      if (why) leave(page, image, why, `${place}: ${imageName(image)} fails but was left alone: ${why}.`);
      else work.push({ page, image });
    }

  const changes: Change[] = [];
  if (work.length > 0)
    await options.useEngine(async (describer) => {
      const described = await describeAll(describer, work, options.language);
      for await (const done of described) {
        const { page, image } = done;
        const place = `${page.page}:${image.located?.line}`;
        if ('error' in done) {
          leave(
            page,
            image,
            `could not be described: ${done.error}`,
            `${place}: ${imageName(image)} could not be described: ${done.error}`,
          );
          continue;
        }
        // Only a publishable alt is written; for the rest a person's words are needed (ADR 071).
        const unpublishable = needsWords(done.result, page, done.context);
        if (unpublishable) {
          needsYourWords.push({
            page: page.page,
            line: image.located?.line ?? null,
            column: image.located?.column ?? null,
            image: imageName(image),
            ...unpublishable,
          });
          say?.(`${place}: ${imageName(image)} needs your words: ${unpublishable.reason}`);
          continue;
        }
        const after = done.result.decorative ? '' : done.result.altText.trim();
        const edit = image.located?.edit as AltEdit;
        if (!after && edit.kind === 'markdown') {
          // `![](src)` is a missing alt, not a decorative one (ADR 071): only <img alt=""> says that.
          const why = 'the engine finds it decorative, which Markdown says only with <img alt="">';
          leave(page, image, why, `${place}: ${imageName(image)} was left alone: ${why}; write it by hand.`);
          continue;
        }
        const failing = stillFails(page, image, after);
        if (failing.length > 0) {
          const shown = after ? `“${after}”` : 'alt=""';
          leave(
            page,
            image,
            `the engine's ${shown} would still fail (${failing.join(', ')})`,
            `${place}: ${imageName(image)} was left alone: the engine's ${shown} would still fail (${failing.join(', ')}); write it by hand.`,
          );
          continue;
        }
        const source = page.source as SourcePage;
        changes.push({
          source,
          image,
          edit,
          line: positionOf(lineIndex(source.text), edit.kind === 'markdown' ? edit.start : edit.tagStart)
            .line,
          before: image.facts.alt,
          after,
        });
      }
    });
  return { changes, needsWords: needsYourWords, leftAlone };
}

/** The changes grouped by the file they are in, in the order they came. */
export function changesByFile(changes: Change[]): Map<SourcePage, Change[]> {
  const byFile = new Map<SourcePage, Change[]>();
  for (const change of changes) byFile.set(change.source, [...(byFile.get(change.source) ?? []), change]);
  return byFile;
}

/** One unified diff per file, as `git apply` and `patch` read them. */
export const filePatches = (changes: Change[]): string[] =>
  [...changesByFile(changes)].map(([source, fileChanges]) => patchOf(source, fileChanges));

/**
 * Writes the changes file by file; a file that changed meanwhile or is a link is not written, and
 * `refused` says why. Returns the changes really written.
 */
export async function writeFixes(
  changes: Change[],
  refused: (source: SourcePage, message: string) => void,
  wrote?: (change: Change) => void,
): Promise<Set<Change>> {
  const written = new Set<Change>();
  for (const [source, fileChanges] of changesByFile(changes)) {
    const refusal = await writeChanged(source, applyChanges(source.text, fileChanges));
    if (refusal) {
      refused(source, refusal);
      continue;
    }
    for (const change of fileChanges) {
      written.add(change);
      wrote?.(change);
    }
  }
  return written;
}

/** The run as fix's reports show it (fix-report.ts). */
export function toFixOutcome(
  settings: { targets: string[]; write: boolean },
  chosen: Change[],
  written: Set<Change>,
  proposal: FixProposal,
  notices: Notice[],
): FixOutcome {
  return {
    targets: settings.targets,
    write: settings.write,
    changes: chosen.map((change) => ({
      page: change.source.path,
      line: change.line,
      column: change.image.located?.column ?? null,
      image: imageName(change.image),
      before: change.before,
      after: change.after,
      written: written.has(change),
    })),
    needsWords: proposal.needsWords,
    leftAlone: proposal.leftAlone,
    notices,
  };
}

export async function runFix(argv: string[], io: CliIo): Promise<number> {
  let settings: FixSettings | 'help';
  const notices: Notice[] = [];
  let files: PageFile[];
  try {
    settings = readFixSettings(argv);
    if (settings === 'help') {
      io.stdout.write(`${fixUsage}\n`);
      return 0;
    }
    files = await readFolderTargets(settings.targets, notices);
  } catch (error) {
    if (!(error instanceof CommandUsageError)) throw error;
    io.stderr.write(`altwise fix: ${error.message}\n\n${fixUsage}\n`);
    return 2;
  }

  const audited = await auditForFix(files, settings.pixels, notices, undefined, io.env);

  const text = settings.format === 'text';
  // Page words, file names and alt texts reach a terminal only with their control characters shown.
  const say = (line: string) => io.stderr.write(terminalText(`altwise fix: ${line}\n`));
  const placeOf = (notice: Notice) =>
    notice.page && !notice.message.startsWith(notice.page)
      ? `${notice.page}${notice.line ? `:${notice.line}` : ''}: `
      : '';
  for (const notice of notices)
    if (text || notice.level === 'error')
      say(`${notice.level === 'error' ? 'error: ' : ''}${placeOf(notice)}${notice.message}`);

  const proposal = await proposeFixes(audited, {
    ...(settings.language ? { language: settings.language } : {}),
    useEngine: engineForRun(io.env),
    ...(text ? { say } : {}),
  });
  const { changes } = proposal;
  const needsYourWords = proposal.needsWords;

  const chosen = settings.review && changes.length > 0 ? await reviewChanges(changes, io) : changes;

  /** The changes really written (a file that changed meanwhile, or is a link, is not). */
  let written = new Set<Change>();
  if (!settings.write) {
    if (text)
      // A patch piped to a file keeps every byte; on a terminal its controls are shown.
      for (const patch of filePatches(chosen)) io.stdout.write(io.stdout.isTTY ? terminalText(patch) : patch);
  } else {
    written = await writeFixes(
      chosen,
      (source, refused) => {
        say(`error: ${refused}`);
        notices.push({ level: 'error', page: source.path, message: refused });
      },
      (change) => {
        if (text)
          io.stdout.write(
            terminalText(
              `${change.source.path}:${change.line}: alt ${change.before === null ? '(none)' : JSON.stringify(change.before)} → ${JSON.stringify(change.after)}\n`,
            ),
          );
      },
    );
  }

  const outcome = toFixOutcome(settings, chosen, written, proposal, notices);
  if (settings.format === 'json')
    io.stdout.write(terminalJson(`${JSON.stringify(fixJsonReport(outcome), null, 2)}\n`));
  else if (settings.format === 'sarif')
    io.stdout.write(terminalJson(`${JSON.stringify(fixSarifReport(outcome, cliVersion), null, 2)}\n`));
  else if (settings.format === 'junit') io.stdout.write(fixJunitReport(outcome));
  else {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const wordsNeeded =
      needsYourWords.length > 0
        ? ` ${plural(needsYourWords.length, 'image')} need${needsYourWords.length === 1 ? 's' : ''} your words.`
        : '';
    if (chosen.length === 0) say(`Nothing to fix: no failing image could be given alt text.${wordsNeeded}`);
    else if (settings.write) {
      // What was really written: a file that changed meanwhile or is a link counts for nothing.
      const files = new Set([...written].map((change) => change.source)).size;
      const unwritten = chosen.length - written.size;
      say(
        `${plural(written.size, 'alt text')} in ${plural(files, 'file')} written.${unwritten > 0 ? ` ${plural(unwritten, 'alt text')} not written.` : ''}${wordsNeeded}`,
      );
    } else
      say(
        `${plural(chosen.length, 'alt text')} in ${plural(changesByFile(chosen).size, 'file')} to write (run with --write to change the files).${wordsNeeded}`,
      );
    if (audited.every((page) => page.images.every((image) => image.verdict !== 'fail')))
      say('No image fails the checks.');
  }
  return notices.some((notice) => notice.level === 'error') ? 2 : 0;
}
