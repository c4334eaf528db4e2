import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MCP_BASE64_CHARS } from '@altwise/contracts/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../bin/audit-report.ts';
import type { FixJsonReport } from '../../bin/fix-report.ts';
import { createUser } from '../billing-helpers.ts';
import { createTestEngine } from '../generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from '../helper.ts';
import { bin, makeSite, openingHours } from './static-site.ts';

/**
 * `altwise mcp` driven by the SDK's own client over stdio: one server process for the file, with the
 * real offline engine, on copies of the static-site fixture; get_audit and list_failures call an
 * in-process app listening on loopback with an API key.
 */

const pages = ['index.html', 'about.html', join('docs', 'guide.md')];
/** A page that fails an image, served to the in-process app's audit. */
const auditedPage = `<!doctype html><html><head><title>Harbour</title></head><body>
  <h1>Harbour</h1><img src="/a.jpg"><img src="/b.jpg" alt="DSC0042.jpg"><img src="/c.jpg" alt="Boats moored in the harbour at dusk">
</body></html>`;

let dir: string;
let site: Server;
let t: TestApp;
let client: Client;
let auditId: string;
let auditDone: Promise<{ status: string; error?: string }>;
let serverLog = '';

type ToolAnswer = {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: unknown;
};

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 240_000 })) as ToolAnswer;

const readPages = async (folder: string) =>
  Object.fromEntries(
    await Promise.all(pages.map(async (page) => [page, await readFile(join(folder, page), 'utf8')])),
  );

/** A tool error's words. */
const refusalOf = (result: ToolAnswer) => {
  expect(result.isError).toBe(true);
  return result.content.map((part) => part.text).join('\n');
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-mcp-'));
  await makeSite(join(dir, 'site'));
  await makeSite(join(dir, 'writable'));
  await writeFile(join(dir, 'outside.html'), '<p><img src="x.jpg"></p>');
  await symlink(join(dir, 'outside.html'), join(dir, 'writable', 'linked.html'));

  site = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(auditedPage);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // The page's reading time is not under test here; a busy machine must not fail the audit.
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true' },
    engine: createTestEngine(),
    pageLimits: { timeoutMs: 120_000 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await createUser(t, 5);
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: owner.auth,
    payload: { name: 'Agent' },
  });
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    headers: owner.auth,
    payload: {
      url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`,
      scope: 'page',
      render: 'never',
    },
  });
  // The audit runs while the other tools are tried; the last test waits for it.
  auditId = started.json().id;
  auditDone = waitFor(async () => {
    const audit = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${auditId}`,
      headers: owner.auth,
    });
    return ['completed', 'failed'].includes(audit.json().status) ? audit.json() : null;
  }, 120_000);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: dir,
    stderr: 'pipe',
    env: {
      ...(process.env as Record<string, string>),
      ALTWISE_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
      ALTWISE_API_KEY: key.json().key,
    },
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    serverLog += chunk.toString();
  });
  client = new Client({ name: 'altwise-test', version: '1.0.0' });
  await client.connect(transport);
}, 240_000);

afterAll(async () => {
  await client?.close();
  await t?.cleanup();
  site?.closeAllConnections();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await rm(dir, { recursive: true, force: true });
});

// The models load on the first call that needs them, and the machine may be busy.
describe('altwise mcp', { timeout: 300_000 }, () => {
  it('offers the six tools with their inputs from the contracts', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'audit_files',
      'audit_url',
      'describe_image',
      'fix_files',
      'get_audit',
      'list_failures',
    ]);
    const describeTool = tools.find((tool) => tool.name === 'describe_image');
    expect(Object.keys(describeTool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['path', 'url', 'base64', 'context', 'language']),
    );
    expect(tools.find((tool) => tool.name === 'fix_files')?.inputSchema.properties).toHaveProperty('write');
  });

  it('audits a folder like altwise audit, with file, line and verdicts', async () => {
    const result = await call('audit_files', { paths: [join(dir, 'site')] });
    expect(result.isError, serverLog).toBeFalsy();
    const report = result.structuredContent as JsonReport;
    expect(report.summary.pages).toBe(3);
    const coffee = report.images.find((image) => image.image === 'site/img/coffee.jpg');
    expect(coffee).toMatchObject({ page: 'site/index.html', line: 11, column: 3, verdict: 'fail' });
    expect(coffee?.problems.map((problem) => problem.code)).toContain('missing');
    // The pixel check read the text drawn in the image behind alt="".
    const hours = report.images.find(
      (image) => image.page === 'site/index.html' && image.image === 'site/img/opening-hours.png',
    );
    expect(hours?.problems.find((p) => p.code === 'empty-but-informative')?.message).toContain(
      openingHours.join(' '),
    );
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(report);
  });

  it('refuses a missing folder, a URL given as a file and a private site, in words', async () => {
    expect(refusalOf(await call('audit_files', { paths: [join(dir, 'nowhere')] }))).toContain(
      'does not exist',
    );
    expect(refusalOf(await call('audit_files', { paths: ['https://example.com/'] }))).toContain(
      'use audit_url',
    );
    expect(refusalOf(await call('audit_url', { url: 'http://127.0.0.1:9/' }))).toContain(
      'is on a private or local address',
    );
    expect(refusalOf(await call('audit_url', { url: 'ftp://example.com/' }))).toContain(
      'Please enter a valid http or https URL',
    );
    expect(refusalOf(await call('audit_url', { url: 'https://example.com/', maxPages: 0 }))).toContain(
      'maxPages must be at least 1',
    );
  });

  it('describes an image from a path and from base64, with its grounds', async () => {
    const fromPath = await call('describe_image', {
      path: join(dir, 'site', 'img', 'rocket.jpg'),
      context: { heading: 'Rocket Club' },
    });
    expect(fromPath.isError, serverLog).toBeFalsy();
    // Nothing in or around the photo names it: a person's words are needed, and none are made up.
    expect(fromPath.structuredContent).toMatchObject({
      alt: '',
      needsWords: true,
      needsWordsReason: expect.stringContaining('needs your words'),
      engine: 'offline',
      longDescription: null,
    });

    const png = await readFile(join(dir, 'site', 'img', 'opening-hours.png'));
    const fromBytes = await call('describe_image', {
      base64: `data:image/png;base64,${png.toString('base64')}`,
      context: { pageTitle: 'Rocket Club', heading: 'Visit us' },
    });
    const described = fromBytes.structuredContent as { alt: string; grounds: Array<{ source: string }> };
    expect(described.alt).toContain('Open daily');
    expect(described.grounds.map((ground) => ground.source)).toContain('ocr');
  });

  it('refuses bad images in words: two sources, not an image, too large, private, missing', async () => {
    const png = join(dir, 'site', 'img', 'opening-hours.png');
    expect(
      refusalOf(await call('describe_image', { path: png, url: 'https://example.com/a.png' })),
    ).toContain('Give exactly one of path, url or base64');
    expect(
      refusalOf(await call('describe_image', { base64: Buffer.from('hello').toString('base64') })),
    ).toContain('does not hold an image');
    expect(
      refusalOf(await call('describe_image', { base64: 'A'.repeat(MAX_MCP_BASE64_CHARS + 1) })),
    ).toContain('The image must be at most 5 MB');
    expect(refusalOf(await call('describe_image', { url: 'http://127.0.0.1:9/a.png' }))).toMatch(
      /private|local/,
    );
    expect(refusalOf(await call('describe_image', { path: join(dir, 'nowhere.png') }))).toContain(
      'The file does not exist.',
    );
  });

  it('returns the diff of fix_files and changes nothing without write', async () => {
    const before = await readPages(join(dir, 'site'));
    const result = await call('fix_files', { folder: 'site' });
    expect(result.isError, serverLog).toBeFalsy();
    const report = result.structuredContent as FixJsonReport & { diff: string };
    expect(report.write).toBe(false);
    expect(report.summary.written).toBe(0);
    expect(report.changes).toContainEqual(
      expect.objectContaining({ page: 'site/index.html', before: 'IMG_2041.jpg', written: false }),
    );
    expect(report.needsWords.map((image) => image.image)).toContain('site/img/coffee.jpg');
    expect(report.diff).toContain('--- a/site/index.html\n+++ b/site/index.html\n');
    expect(report.diff).toContain('--- a/site/docs/guide.md\n+++ b/site/docs/guide.md\n');
    expect(await readPages(join(dir, 'site'))).toEqual(before);
  });

  it('writes the alt texts with write: true, and only those', async () => {
    const before = await readPages(join(dir, 'writable'));
    const result = await call('fix_files', {
      folder: join(dir, 'writable'),
      files: ['index.html', join(dir, 'writable', 'docs', 'guide.md')],
      write: true,
      pixels: false,
    });
    expect(result.isError, serverLog).toBeFalsy();
    const report = result.structuredContent as FixJsonReport;
    expect(report.changes).toContainEqual(
      expect.objectContaining({ page: 'writable/index.html', before: 'IMG_2041.jpg', written: true }),
    );
    expect(report.summary.written).toBe(report.changes.length);
    const after = await readPages(join(dir, 'writable'));
    expect(after['about.html']).toBe(before['about.html']);
    for (const change of report.changes) {
      expect(change.written).toBe(true);
      const page = change.page.replace(/^writable\//, '');
      expect(after[page]).not.toBe(before[page]);
      expect(after[page]).toContain(change.after);
    }
  });

  it('refuses paths outside the folder, links and missing folders, writing nothing', async () => {
    const outside = await readFile(join(dir, 'outside.html'), 'utf8');
    const before = await readPages(join(dir, 'writable'));
    const attempts = [
      { folder: join(dir, 'writable'), files: ['../outside.html'], write: true },
      { folder: join(dir, 'writable'), files: [join(dir, 'outside.html')], write: true },
      { folder: join(dir, 'writable'), files: ['linked.html'], write: true },
      { folder: join(dir, 'nowhere'), write: true },
      { folder: join(dir, 'writable'), write: 'yes' },
    ];
    const refusals = [];
    for (const attempt of attempts) refusals.push(refusalOf(await call('fix_files', attempt)));
    expect(refusals[0]).toContain('is outside the folder');
    expect(refusals[1]).toContain('is outside the folder');
    expect(refusals[2]).toContain('is a symbolic link');
    expect(refusals[3]).toContain('is not a folder');
    expect(refusals[4]).toContain('write must be true or false');
    expect(await readFile(join(dir, 'outside.html'), 'utf8')).toBe(outside);
    expect(await readPages(join(dir, 'writable'))).toEqual(before);
  });

  it('reads an audit of the server and its failing images with the API key', async () => {
    const done = await auditDone;
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: undefined });
    const audit = await call('get_audit', { id: auditId });
    expect(audit.isError, serverLog).toBeFalsy();
    expect(audit.structuredContent).toMatchObject({ id: auditId, status: 'completed', pagesScanned: 1 });
    const { counts } = audit.structuredContent as { counts: { fail: number } };
    expect(counts.fail).toBe(2);

    const failures = await call('list_failures', { id: auditId, pageSize: 1 });
    const listed = failures.structuredContent as {
      items: Array<{ verdict: string; src: string }>;
      total: number;
    };
    expect(listed.total).toBe(2);
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]?.verdict).toBe('fail');

    expect(refusalOf(await call('get_audit', { id: 'not-an-id' }))).toContain('There is no such audit.');
    expect(refusalOf(await call('get_audit', { id: '00000000-0000-4000-8000-000000000000' }))).toContain(
      'The Altwise server answered 404',
    );
  });
});
