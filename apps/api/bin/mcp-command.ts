import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import {
  auditImagesResponseSchema,
  auditSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  MAX_AUDIT_IMAGES_PAGE_SIZE,
} from '@altwise/contracts/audit';
import {
  auditFilesInputSchema,
  auditUrlInputSchema,
  type DescribeImageInput,
  type DescribeImageResult,
  describeImageInputSchema,
  describeImageResultSchema,
  type FixFilesInput,
  fixFilesInputSchema,
  getAuditInputSchema,
  listFailuresInputSchema,
  MAX_MCP_BASE64_IMAGE_BYTES,
} from '@altwise/contracts/mcp';
import { languageTagOf, type PageContext } from '@altwise/contracts/page-context';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { EngineInputError, EngineProviderError } from '../src/engines/errors.ts';
import { fetchImage } from '../src/engines/fetch-image.ts';
import {
  type AuditReaders,
  auditTargets,
  CommandUsageError,
  cliVersion,
  looksLikeUrl,
  readFolderTargets,
} from './audit-command.ts';
import { toJsonReport } from './audit-report.ts';
import { createPageReader, createPixelReader, type Notice, type PageFile } from './audit-run.ts';
import { pageKindOf } from './audit-sources.ts';
import { describeErrorMessage, describeImageBytes, readImageFile } from './describe-image.ts';
import { looksLikeImage } from './describe-inputs.ts';
import {
  auditForFix,
  type Describer,
  type EngineUse,
  filePatches,
  proposeFixes,
  toFixOutcome,
  writeFixes,
} from './fix-command.ts';
import { fixJsonReport } from './fix-report.ts';

export const mcpUsage = `Usage: altwise mcp [--allow-private]

Starts a Model Context Protocol server on stdin and stdout, for AI agents and editors. Its tools:
  audit_url      the site audit's checks on a live site (through the SSRF-safe fetcher)
  audit_files    the same checks on HTML and Markdown folders and files
  describe_image  alt text for one image (a file, an http(s) URL or base64) with its grounds
  fix_files      alt text for a folder's failing images: a unified diff, written only with write: true
  get_audit, list_failures
                 an audit of an Altwise server and its failing images (only when ALTWISE_API_KEY is set)

Options:
  --allow-private  let audit_url and describe_image fetch private and local addresses
  -h, --help       show this help

The engine comes from the environment, as for altwise describe (ALT_TEXT_ENGINE=offline|openai,
OPENAI_*, ENGINE_*); the server's tools from ALTWISE_URL (where Altwise runs) and ALTWISE_API_KEY.`;

/** The environment the server's tools read: where Altwise runs and the key to call it with. */
const serverEnvSchema = z.object({
  ALTWISE_API_KEY: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .optional(),
  ALTWISE_URL: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url({ protocol: /^https?$/, error: 'ALTWISE_URL must be an http(s) address' }).optional())
    .optional(),
});

/** A tool call the server refuses, in words the agent can act on; nothing was changed. */
class ToolInputError extends Error {}

const answer = (data: object): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(data) }],
  structuredContent: data as Record<string, unknown>,
});

const refusal = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/** Runs a tool; the errors a caller can fix come back as a tool error in words, not a crash. */
async function asTool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (
      error instanceof ToolInputError ||
      error instanceof CommandUsageError ||
      error instanceof EngineInputError ||
      error instanceof EngineProviderError
    )
      return refusal(error.message);
    throw error;
  }
}

/** The engine for the server's life: made and warmed on first use, so listing tools loads no model. */
function sharedEngine(): { useEngine: EngineUse; close: () => Promise<void> } {
  let ready: Promise<Describer> | undefined;
  const open = async (): Promise<Describer> => {
    const options = engineOptionsFromEnv(process.env);
    const engine = createAltTextEngine(options);
    await engine.warmUp();
    const concurrency = Math.min(4, options.offline.maxQueue + options.offline.workers);
    return { engine, maxBytes: options.limits.maxInputBytes, concurrency };
  };
  return {
    useEngine: async (run) => {
      ready ??= open().catch((error) => {
        ready = undefined;
        throw error;
      });
      return run(await ready);
    },
    close: async () => {
      const made = await ready?.catch(() => undefined);
      await made?.engine.close();
    },
  };
}

/** Errors that stop the run stop the tool; notes ride along in the report. */
const firstError = (notices: Notice[]) => notices.find((notice) => notice.level === 'error');

async function imageBytes(
  input: DescribeImageInput,
  maxBytes: number,
  allowPrivate: boolean,
): Promise<{ bytes: Uint8Array; fileName?: string }> {
  if (input.path !== undefined) {
    const path = resolve(input.path);
    try {
      return { bytes: await readImageFile(path, maxBytes), fileName: basename(path) };
    } catch (error) {
      throw new ToolInputError(`${input.path}: ${describeErrorMessage(error)}`);
    }
  }
  if (input.url !== undefined) {
    const { bytes, url } = await fetchImage(input.url, { allowPrivate, maxBytes });
    const fileName = basename(url.pathname);
    return { bytes, ...(fileName ? { fileName } : {}) };
  }
  const text = (input.base64 ?? '').replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length === 0)
    throw new ToolInputError('base64 is not base64 text of an image.');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > Math.min(maxBytes, MAX_MCP_BASE64_IMAGE_BYTES))
    throw new ToolInputError('The image is too large.');
  if (!looksLikeImage(bytes.subarray(0, 512)))
    throw new ToolInputError(
      'base64 does not hold an image (JPEG, PNG, GIF, WebP, AVIF, HEIC, BMP, TIFF or SVG).',
    );
  return { bytes };
}

/**
 * The page files fix_files works on: the folder's, or the named ones, each a regular file inside the
 * folder (its real path, links followed, too) and not a symbolic link, as `altwise fix` writes.
 */
async function fixFiles(input: FixFilesInput, notices: Notice[]): Promise<PageFile[]> {
  const root = resolve(input.folder);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new ToolInputError(`${input.folder} is not a folder.`);
  if (!input.files) return readFolderTargets([root], notices);
  const realRoot = await realpath(root);
  const files: PageFile[] = [];
  for (const file of input.files) {
    const absolute = resolve(root, file);
    const inside = relative(root, absolute);
    if (!inside || inside.startsWith('..') || isAbsolute(inside))
      throw new ToolInputError(
        `${file} is outside the folder ${input.folder}; fix_files changes only files inside it.`,
      );
    const link = await lstat(absolute).catch(() => undefined);
    if (!link) throw new ToolInputError(`${file} does not exist in ${input.folder}.`);
    if (link.isSymbolicLink())
      throw new ToolInputError(`${file} is a symbolic link, and fix_files does not write through links.`);
    if (!link.isFile()) throw new ToolInputError(`${file} is not a file.`);
    const real = await realpath(absolute);
    if (!real.startsWith(realRoot + sep))
      throw new ToolInputError(`${file} is outside the folder ${input.folder} once its links are followed.`);
    if (!pageKindOf(absolute))
      throw new ToolInputError(`${file} is not an HTML (.html, .htm) or Markdown (.md) file.`);
    files.push({ absolute, root });
  }
  return files;
}

/** A call to the configured Altwise server's API with the key; its error answers said in words. */
async function callServer(base: URL, apiKey: string, path: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(`api/v1${path}`, base.href.endsWith('/') ? base : `${base.href}/`), {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new ToolInputError(
      `The Altwise server at ${base.origin} could not be reached: ${(error as Error).message}.`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
  if (!response.ok) {
    const message = typeof body?.message === 'string' ? body.message : response.statusText;
    throw new ToolInputError(`The Altwise server answered ${response.status}: ${message}`);
  }
  return body;
}

export interface McpServerOptions {
  allowPrivate: boolean;
  useEngine: EngineUse;
  /** The page reader and the pixel check's OCR for every audit of the session. */
  readers: AuditReaders;
  /** The Altwise server get_audit and list_failures call; without it they are not offered. */
  api?: { url: URL; apiKey: string };
}

/** The server and its tools (ADR 077); the caller connects it to a transport. */
export function createAltwiseMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'altwise', version: cliVersion });
  const { allowPrivate, useEngine, readers } = options;

  server.registerTool(
    'audit_url',
    {
      title: 'Audit a site’s alt text',
      description: `Runs the Altwise site audit's alt-text checks on a live site: robots.txt obeyed, the start page and the pages it links to on the same site, breadth first (${DEFAULT_AUDIT_MAX_PAGES} pages unless maxPages says). Returns every image with its verdict (pass, fail, warning, decorative), its problems and WCAG criteria, a summary and notices. Private and local addresses are refused.`,
      inputSchema: auditUrlInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      asTool(async () => {
        const notices: Notice[] = [];
        if (input.pixels) await readers.pixels.warmUp();
        const audited = await auditTargets(
          { targets: [input.url], maxPages: input.maxPages, allowPrivate, pixels: input.pixels },
          notices,
          readers,
        );
        const error = firstError(notices);
        if (error && audited.length === 0) return refusal(error.message);
        return answer(toJsonReport([input.url], audited, notices));
      }),
  );

  server.registerTool(
    'audit_files',
    {
      title: 'Audit alt text in HTML and Markdown files',
      description:
        "Runs the Altwise audit's alt-text checks on HTML and Markdown folders (with their sub-folders) and files, like `altwise audit <folder>`: images are resolved relative to each file and nothing is fetched. Returns every image with file, line and column, its verdict, problems and WCAG criteria, a summary and notices.",
      inputSchema: auditFilesInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      asTool(async () => {
        const url = input.paths.find(looksLikeUrl);
        if (url)
          throw new ToolInputError(`${url} is a URL: audit_files reads files; use audit_url for a site.`);
        const notices: Notice[] = [];
        const targets = input.paths.map((path) => resolve(path));
        if (input.pixels) await readers.pixels.warmUp();
        const audited = await auditTargets(
          { targets, maxPages: DEFAULT_AUDIT_MAX_PAGES, allowPrivate: false, pixels: input.pixels },
          notices,
          readers,
        );
        const error = firstError(notices);
        if (error && audited.length === 0) return refusal(error.message);
        return answer(toJsonReport(input.paths, audited, notices));
      }),
  );

  server.registerTool(
    'describe_image',
    {
      title: 'Write alt text for an image',
      description:
        'Writes alt text for one image (a file path, a public http(s) URL, or base64 bytes) with the configured engine (the offline engine unless a vision model is configured), using the page context given. Returns the alt text, whether it is decorative, its grounds (the evidence used), needsWords when nothing can be stood behind and a person must write it (alt is then empty), and a long description for charts and diagrams.',
      inputSchema: describeImageInputSchema,
      outputSchema: describeImageResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      asTool(() =>
        useEngine(async ({ engine, maxBytes }) => {
          const { bytes, fileName } = await imageBytes(input, maxBytes, allowPrivate);
          const context: PageContext = { ...(fileName ? { fileName } : {}), ...input.context };
          const { result } = await describeImageBytes(
            engine,
            bytes,
            {
              ...(input.language ? { language: input.language } : {}),
              ...(input.maxLength ? { maxLength: input.maxLength } : {}),
              ...(input.keywords ? { keywords: input.keywords } : {}),
            },
            context,
          );
          const described: DescribeImageResult = {
            alt: result.decorative ? '' : result.altText,
            decorative: result.decorative,
            grounds: result.reasons,
            needsWords: result.needsWords ?? false,
            needsWordsReason: result.needsWordsReason ?? null,
            longDescription: result.longDescription,
            confidence: result.confidence,
            needsReview: result.needsReview,
            origin: result.origin ?? 'ai',
            textInImage: result.textInImage ?? null,
            engine: result.engine,
            model: result.model,
          };
          return answer(described);
        }),
      ),
  );

  server.registerTool(
    'fix_files',
    {
      title: 'Fix alt text in HTML and Markdown files',
      description:
        'Like `altwise fix`: audits the folder, describes every image that fails with the configured engine (the page around it as context) and returns the alt texts as a unified diff. Only publishable alt text is proposed; images that need a person’s words are listed with the reason, and images left alone with why. Files change only with write: true, never through a symbolic link or outside the folder, and only when unchanged since read.',
      inputSchema: fixFilesInputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (input) =>
      asTool(async () => {
        const notices: Notice[] = [];
        const files = await fixFiles(input, notices);
        if (input.pixels) await readers.pixels.warmUp();
        const audited = await auditForFix(files, input.pixels, notices, readers);
        const error = firstError(notices);
        if (error && audited.length === 0) return refusal(error.message);
        const language = input.language === undefined ? undefined : languageTagOf(input.language);
        const proposal = await proposeFixes(audited, { ...(language ? { language } : {}), useEngine });
        const written = input.write
          ? await writeFixes(proposal.changes, (source, message) =>
              notices.push({ level: 'error', page: source.path, message }),
            )
          : new Set<never>();
        const outcome = toFixOutcome(
          { targets: [input.folder], write: input.write },
          proposal.changes,
          written,
          proposal,
          notices,
        );
        return answer({ ...fixJsonReport(outcome), diff: filePatches(proposal.changes).join('') });
      }),
  );

  const { api } = options;
  if (api) {
    server.registerTool(
      'get_audit',
      {
        title: 'Read an audit of the Altwise server',
        description: `Reads an audit of the Altwise server at ${api.url.origin} by id (as its API's GET /audits/{id}): status, pages, score, counts by verdict and problem, notices.`,
        inputSchema: getAuditInputSchema,
        outputSchema: auditSchema,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      (input) =>
        asTool(async () => {
          const body = await callServer(api.url, api.apiKey, `/audits/${input.id}`);
          return answer(auditSchema.parse(body));
        }),
    );
    server.registerTool(
      'list_failures',
      {
        title: 'List the failing images of an audit',
        description: `Lists the images that fail in an audit of the Altwise server at ${api.url.origin}, a page at a time (at most ${MAX_AUDIT_IMAGES_PAGE_SIZE}): each with its page, address, alt, problems and any suggestion; total counts them all.`,
        inputSchema: listFailuresInputSchema,
        outputSchema: auditImagesResponseSchema,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      (input) =>
        asTool(async () => {
          const query = new URLSearchParams({
            verdict: 'fail',
            page: String(input.page),
            pageSize: String(input.pageSize),
          });
          const body = await callServer(api.url, api.apiKey, `/audits/${input.id}/images?${query}`);
          return answer(auditImagesResponseSchema.parse(body));
        }),
    );
  }
  return server;
}

export async function runMcp(argv: string[]): Promise<number> {
  let allowPrivate: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        'allow-private': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(`${mcpUsage}\n`);
      return 0;
    }
    allowPrivate = values['allow-private'];
  } catch (error) {
    process.stderr.write(`altwise mcp: ${(error as Error).message}\n\n${mcpUsage}\n`);
    return 2;
  }
  // The CLI is an entry point like server.ts: it reads its environment here.
  const env = serverEnvSchema.safeParse(process.env);
  if (!env.success) {
    process.stderr.write(`altwise mcp: ${env.error.issues.map((issue) => issue.message).join('; ')}\n`);
    return 2;
  }
  const { ALTWISE_API_KEY: apiKey, ALTWISE_URL: url } = env.data;
  if (apiKey && !url) {
    process.stderr.write('altwise mcp: ALTWISE_API_KEY is set but not ALTWISE_URL, where Altwise runs.\n');
    return 2;
  }
  // stdout carries the protocol: a library's console.log would corrupt it, so it goes to stderr.
  for (const method of ['log', 'info', 'debug'] as const)
    console[method] = (...args: unknown[]) => console.error(...args);

  const engine = sharedEngine();
  const readers: AuditReaders = { pages: createPageReader(), pixels: createPixelReader(process.env) };
  const server = createAltwiseMcpServer({
    allowPrivate,
    useEngine: engine.useEngine,
    readers,
    ...(apiKey && url ? { api: { url: new URL(url), apiKey } } : {}),
  });
  const transport = new StdioServerTransport();
  // The client ends the session by closing our stdin (or the transport closes).
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await engine.close();
  await readers.pages.close();
  await readers.pixels.close();
  return 0;
}
