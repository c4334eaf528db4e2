import { once } from 'node:events';
import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { EngineInputError, EngineProviderError } from '../src/engines/errors.ts';
import { fetchImage } from '../src/engines/fetch-image.ts';
import type { AltTextEngine, DescribeOptions, PageContext } from '../src/engines/types.ts';
import { runAudit } from './audit-command.ts';
import type { CliIo } from './cli-io.ts';
import { describeErrorMessage, describeImageBytes, readImageFile } from './describe-image.ts';
import { contextSchema, describeIssues, isFolder, listWork, type WorkItem } from './describe-inputs.ts';
import {
  csvHeader,
  csvRow,
  isFailed,
  jsonLine,
  type OutputRow,
  readableLine,
  toDescribedRow,
} from './describe-output.ts';
import { runFix } from './fix-command.ts';
import { mapInOrder } from './map-in-order.ts';
import { runMcp } from './mcp-command.ts';
import { terminalLine, terminalText } from './terminal-text.ts';
import { createMetadataWriter } from './write-metadata.ts';

type MetadataWriter = ReturnType<typeof createMetadataWriter>;

const usage = `Usage: altwise describe <file|folder|url>... [--manifest items.jsonl] [options]

Describes every image given: files, the images at the top level of each folder (sub-folders and
non-image files are skipped and reported), http(s) URLs, and the lines of each manifest. The models
load once for the whole run; results come out in input order.

Options:
  --manifest <f>       JSON Lines, one image a line (repeatable):
                       {"id"?: "...", "image": "path-or-URL", "context"?: {...}}
                       relative paths are relative to the manifest's folder
  --context-file <f>   JSON page context for every image: pageTitle, heading, caption,
                       surroundingText, linkTarget, linkText, existingAlt, pageUrl, role,
                       fileName, partOfPicture, imageRow {position, files}, siteName,
                       siteLogo (a manifest line's context overrides it field by field)
  --json               one JSON line per image: {id, image, altText, decorative, confidence,
                       needsReview, reasons, engine, model, longDescription, textInImage?,
                       signals}
                       or {id, image, error}
  --csv <out.csv>      write the same columns (and error) as CSV; "-" writes it to stdout
  --concurrency <n>    images described at a time (default 4)
  --prompt "<text>"    your own instruction (followed by the openai engine)
  --max-length <n>     maximum characters (default 125)
  --language <tag>     language of the alt text (default en)
  --keywords <a,b>     SEO keywords, used only where true
  --allow-private      allow URLs on private or local addresses
  --write-metadata <d> write a copy of each described image into folder d with its alt text in
                       the file's metadata (IPTC Alt Text (Accessibility), ExifTool; JPEG, PNG,
                       WebP, GIF); the originals are never changed
  -h, --help           show this help

An image that cannot be read or described gets an error line and the others go on. The exit code is
2 for a usage error and 0 otherwise; a single file or URL given alone exits 1 when it fails, as before.
The engine comes from the environment (ALT_TEXT_ENGINE=offline|openai, OPENAI_*, ENGINE_*).

Other commands: altwise audit (the site audit's checks on a site or a folder of HTML and Markdown),
altwise fix (alt text written into those files) and altwise mcp (these as tools for AI agents, over
the Model Context Protocol); each with --help.`;

class UsageError extends Error {}

interface Settings {
  targets: string[];
  manifests: string[];
  context: PageContext;
  format: 'text' | 'json' | 'csv';
  csvPath?: string;
  concurrency: number;
  describe: DescribeOptions;
  allowPrivate: boolean;
  /** --write-metadata: the folder for copies with their alt text in the metadata (ADR 064). */
  metadataDir?: string;
}

async function readSettings(argv: string[]): Promise<Settings | 'help'> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const [command, ...targets] = positionals;
  if (command !== 'describe') {
    throw new UsageError(
      command ? `Unknown command "${command}".` : 'Say what to do: altwise describe, audit, fix or mcp …',
    );
  }
  const manifests = values.manifest ?? [];
  if (targets.length === 0 && manifests.length === 0) {
    throw new UsageError('Give at least one image, folder, URL or --manifest.');
  }
  if (values.json && values.csv !== undefined) throw new UsageError('Use either --json or --csv, not both.');
  const maxLength = wholeNumber(values['max-length'], '--max-length', 20, 1_000);
  const concurrency = wholeNumber(values.concurrency, '--concurrency', 1, 32) ?? 4;
  for (const manifest of manifests) {
    const info = await stat(manifest).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`The manifest ${manifest} does not exist or is not a file.`);
  }
  return {
    targets,
    manifests,
    context: values['context-file'] ? await readContextFile(values['context-file']) : {},
    format: values.json ? 'json' : values.csv !== undefined ? 'csv' : 'text',
    ...(values.csv !== undefined ? { csvPath: values.csv } : {}),
    concurrency,
    allowPrivate: values['allow-private'],
    ...(values['write-metadata'] ? { metadataDir: values['write-metadata'] } : {}),
    describe: {
      ...(values.prompt ? { prompt: values.prompt } : {}),
      ...(maxLength ? { maxLength } : {}),
      ...(values.language ? { language: values.language } : {}),
      ...(values.keywords ? { keywords: values.keywords.split(',').map((k) => k.trim()) } : {}),
    },
  };
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      manifest: { type: 'string', multiple: true },
      'context-file': { type: 'string' },
      json: { type: 'boolean', default: false },
      csv: { type: 'string' },
      concurrency: { type: 'string' },
      prompt: { type: 'string' },
      'max-length': { type: 'string' },
      language: { type: 'string' },
      keywords: { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      'write-metadata': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}.`);
  }
  return n;
}

async function readContextFile(path: string): Promise<PageContext> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read the context file ${path}: ${(error as Error).message}`);
  }
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`The context file ${path}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Describes one item; never rejects, so one bad image cannot stop the others. */
async function describeItem(
  engine: AltTextEngine,
  item: WorkItem,
  settings: Settings,
  maxBytes: number,
  stderr: Writable,
  writeCopy?: MetadataWriter,
): Promise<OutputRow> {
  if (item.kind === 'invalid') return { id: item.id, image: item.image, error: item.error };
  try {
    const bytes =
      item.source.type === 'url'
        ? (await fetchImage(item.source.url, { allowPrivate: settings.allowPrivate, maxBytes })).bytes
        : await readImageFile(item.source.path, maxBytes);
    const { result } = await describeImageBytes(engine, bytes, settings.describe, item.context ?? {});
    if (writeCopy) {
      const copy = await writeCopy(
        item.image,
        item.source.type === 'url' ? null : item.source.path,
        bytes,
        result,
      );
      stderr.write(
        terminalText(
          copy.file
            ? `altwise: wrote ${copy.file} with its alt text\n`
            : `altwise: no copy with alt text for ${item.image}: ${copy.error}\n`,
        ),
      );
    }
    return toDescribedRow(item.id, item.image, result);
  } catch (error) {
    return { id: item.id, image: item.image, error: describeErrorMessage(error) };
  }
}

interface Output {
  closed: boolean;
  write(stream: Writable, text: string): Promise<void>;
}

const isBrokenPipe = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EPIPE';

/**
 * Writes to the run's streams, waiting when one is full. When the reader of stdout goes away
 * (`altwise describe … --json | head`), `closed` is set and the run stops quietly.
 */
function createOutput(stdout: Writable) {
  const output: Output = {
    closed: false,
    async write(stream: Writable, text: string): Promise<void> {
      if (output.closed && stream === stdout) return;
      try {
        if (!stream.write(text)) await once(stream, 'drain');
      } catch (error) {
        if (!isBrokenPipe(error) || stream !== stdout) throw error;
        output.closed = true;
      }
    },
  };
  stdout.on('error', (error) => {
    if (!isBrokenPipe(error)) throw error;
    output.closed = true;
  });
  return output;
}

async function main(argv: string[], io: CliIo, output: Output): Promise<number> {
  // audit and fix live in their own files (ADR 058).
  if (argv[0] === 'audit') return runAudit(argv.slice(1), io);
  if (argv[0] === 'fix') return runFix(argv.slice(1), io);
  if (argv[0] === 'mcp') return runMcp(argv.slice(1));
  const write = output.write;
  let settings: Settings | 'help';
  try {
    settings = await readSettings(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`altwise: ${error.message}\n\n${usage}\n`);
    return 2;
  }
  if (settings === 'help') {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  // One file or URL on its own keeps the original single-image behaviour: the bare alt text, and
  // exit 1 when it cannot be described.
  const [first] = settings.targets;
  const lone =
    first !== undefined &&
    settings.targets.length === 1 &&
    settings.manifests.length === 0 &&
    !(await isFolder(first));

  let csvFile: FileHandle | undefined;
  let csv: Writable | undefined;
  if (settings.format === 'csv') {
    if (settings.csvPath === '-') csv = io.stdout;
    else {
      try {
        csvFile = await open(settings.csvPath as string, 'w');
      } catch (error) {
        io.stderr.write(`altwise: cannot write ${settings.csvPath}: ${(error as Error).message}\n`);
        return 2;
      }
      csv = csvFile.createWriteStream();
    }
    await write(csv, csvHeader());
  }

  // The CLI is an entry point like server.ts: it reads the environment through the engine's schema.
  const options = engineOptionsFromEnv(io.env);
  const engine = createAltTextEngine(options);
  const counts = { described: 0, failed: 0, review: 0, skipped: 0 };
  try {
    await engine.warmUp();
    const work = listWork({
      targets: settings.targets,
      manifests: settings.manifests,
      context: settings.context,
      skipped: (path, why) => {
        counts.skipped += 1;
        io.stderr.write(terminalText(`altwise: skipped ${path} (${why})\n`));
      },
    });
    // The offline engine refuses work beyond its queue; stay within it.
    const limit = Math.min(settings.concurrency, options.offline.maxQueue + options.offline.workers);
    // The CLI reads its environment here, as it does for the engine (EXIFTOOL_PATH, ADR 064).
    const writeCopy = settings.metadataDir
      ? createMetadataWriter(settings.metadataDir, io.env.EXIFTOOL_PATH || 'exiftool')
      : undefined;
    const rows = mapInOrder(work, limit, (item) =>
      describeItem(
        engine as AltTextEngine,
        item,
        settings,
        options.limits.maxInputBytes,
        io.stderr,
        writeCopy,
      ),
    );
    for await (const row of rows) {
      if (isFailed(row)) counts.failed += 1;
      else {
        counts.described += 1;
        if (row.needsReview) counts.review += 1;
      }
      if (settings.format === 'json') await write(io.stdout, jsonLine(row));
      else if (settings.format === 'csv') {
        await write(csv as Writable, csvRow(row));
        if (csv !== io.stdout) await write(io.stdout, readableLine(row));
      } else if (lone) {
        if (isFailed(row)) io.stderr.write(`altwise: ${terminalLine(row.error)}\n`);
        else io.stdout.write(`${row.decorative ? '(decorative: alt="")' : terminalLine(row.altText)}\n`);
      } else await write(io.stdout, readableLine(row));
      if (output.closed) break;
    }
  } finally {
    await engine.close();
    if (csvFile && csv) {
      csv.end();
      await once(csv, 'close');
    }
  }
  if (!lone) {
    const total = counts.described + counts.failed;
    const parts = [`${counts.described} of ${total} image${total === 1 ? '' : 's'} described`];
    if (counts.failed) parts.push(`${counts.failed} failed`);
    if (counts.review) parts.push(`${counts.review} to review`);
    if (counts.skipped) parts.push(`${counts.skipped} skipped`);
    if (output.closed) parts.push('stopped early: the output was closed');
    const destination = csvFile ? ` (written to ${settings.csvPath})` : '';
    io.stderr.write(`altwise: ${parts.join(', ')}${destination}\n`);
  }
  return lone && counts.failed > 0 ? 1 : 0;
}

/** The whole CLI: the exit code, with an engine's refusal said in words (exit 1) as before. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  // Registered before anything is written, for every command, as when it was set on import.
  const output = createOutput(io.stdout);
  try {
    return await main(argv, io, output);
  } catch (error) {
    if (error instanceof EngineInputError || error instanceof EngineProviderError) {
      io.stderr.write(`altwise: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
