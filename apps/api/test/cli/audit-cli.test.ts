import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { auditProblemCodes } from '@altwise/contracts/audit-problems';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../bin/audit-report.ts';
import { altwise, altwiseProcess, makeSite, openingHours, type Run } from './static-site.ts';

/**
 * `altwise audit` on a folder of HTML and Markdown and on a live local site: the CLI run in this
 * process as the binary runs it (two runs go through the real binary in a child process), the
 * product's checks in its worker threads, the offline OCR for the pixel check. One run with the
 * pixel check (the slow one: it loads the OCR), the other formats with --no-pixels.
 */

let dir: string;
let site: string;
let jsonRun: Run;
let report: JsonReport;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-audit-'));
  site = await makeSite(join(dir, 'site'));
  jsonRun = await altwise(['audit', 'site', '--format', 'json'], { cwd: dir });
  report = JSON.parse(jsonRun.stdout) as JsonReport;
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const find = (page: string, image: string) =>
  report.images.find((found) => found.page === page && found.image === image);

describe('altwise audit <folder> --format json', () => {
  it('finds each fixture image with its verdict, codes and file:line', () => {
    expect(jsonRun.code).toBe(0);
    expect(report.version).toBe(1);
    expect(report.summary).toMatchObject({ pages: 3, images: 11, fail: 7, warning: 1, pass: 3 });
    // Good alt: passes and is reported with no problem.
    expect(find('site/index.html', 'site/img/rocket.jpg')).toMatchObject({
      line: 10,
      column: 3,
      verdict: 'pass',
      problems: [],
      alt: 'A rocket lifting off from the launch pad',
      // The page's author wrote it (ADR 057).
      origin: 'human',
    });
    expect(find('site/index.html', 'site/img/coffee.jpg')).toMatchObject({
      line: 11,
      alt: null,
      origin: null,
      verdict: 'fail',
      problems: [{ code: 'missing', severity: 'fail', wcag: ['1.1.1'] }],
    });
    // A tag over three lines is reported where it starts.
    expect(find('site/index.html', 'site/img/astronaut.jpg')).toMatchObject({
      line: 12,
      problems: [{ code: 'file-name' }],
    });
    expect(find('site/index.html', 'site/img/spacer.gif')).toMatchObject({
      verdict: 'warning',
      problems: [{ code: 'decorative-with-alt', severity: 'warning' }],
    });
    const linked = find('site/index.html', 'site/img/camera.jpg');
    expect(linked?.problems.map((p) => p.code)).toContain('link-without-purpose');
    expect(linked?.problems.find((p) => p.code === 'link-without-purpose')?.message).toContain(
      'a link to “/about.html”',
    );
    // A root-relative image of another page resolves at the folder's root.
    expect(find('site/about.html', 'site/img/horse.webp')).toMatchObject({ line: 7, verdict: 'pass' });
  });

  it('reads the text in an image of text drawn with sharp behind alt=""', () => {
    const image = find('site/index.html', 'site/img/opening-hours.png');
    expect(image?.verdict).toBe('fail');
    const problem = image?.problems.find((p) => p.code === 'empty-but-informative');
    expect(problem?.message).toContain(openingHours.join(' '));
  });

  it('reports ![](src) in Markdown as a missing alt, not a decorative one (ADR 071)', () => {
    expect(find('site/docs/guide.md', 'site/img/opening-hours.png')).toMatchObject({
      line: 11,
      alt: null,
      verdict: 'fail',
      problems: [expect.objectContaining({ code: 'missing' })],
    });
  });

  it('points Markdown images at their line, raw HTML in Markdown included', () => {
    expect(find('site/docs/guide.md', 'site/img/coffee.jpg')).toMatchObject({
      line: 5,
      column: 1,
      verdict: 'pass',
    });
    expect(find('site/docs/guide.md', 'site/img/chelsea.jpg')).toMatchObject({
      line: 7,
      alt: 'chelsea.jpg',
      problems: [{ code: 'file-name' }],
    });
    expect(find('site/docs/guide.md', 'site/img/rocket.jpg')).toMatchObject({
      line: 13,
      alt: null,
      problems: [{ code: 'missing' }],
    });
  });
});

describe('altwise audit <folder> in the other formats, exit codes', () => {
  let sarif: Run;
  let junit: Run;
  let text: Run;
  let failOnFail: Run;
  let failOnWarning: Run;
  let cleanPage: Run;

  beforeAll(async () => {
    [sarif, junit, text, failOnFail, failOnWarning, cleanPage] = await Promise.all([
      altwise(['audit', 'site', '--no-pixels', '--format', 'sarif'], { cwd: dir }),
      altwise(['audit', 'site', '--no-pixels', '--format', 'junit', '--fail-on', 'warning'], { cwd: dir }),
      altwise(['audit', 'site', '--no-pixels'], { cwd: dir }),
      altwise(['audit', 'site', '--no-pixels', '--format', 'json', '--fail-on', 'fail'], { cwd: dir }),
      // The real binary, for its exit codes and stdout: 1 for a level found, 0 for clean pages.
      altwiseProcess(['audit', 'site/about.html', 'site/index.html', '--no-pixels', '--fail-on', 'warning'], {
        cwd: dir,
      }),
      altwiseProcess(['audit', 'site/about.html', '--no-pixels', '--fail-on', 'warning'], { cwd: dir }),
    ]);
  }, 180_000);

  it('writes SARIF 2.1.0 with one rule per check and physical locations', () => {
    expect(sarif.code).toBe(0);
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe('2.1.0');
    const [run] = log.runs;
    const rules = run.tool.driver.rules as Array<{ id: string; properties: { wcag: string[] } }>;
    // Every check of the product's audit, in the contract's order.
    expect(rules.map((rule) => rule.id)).toEqual([...auditProblemCodes]);
    expect(rules.map((rule) => rule.id)).toContain('text-mismatch');
    expect(rules.find((rule) => rule.id === 'link-without-purpose')?.properties.wcag).toEqual([
      '2.4.4',
      '4.1.2',
    ]);
    const missing = run.results.find(
      (result: {
        ruleId: string;
        locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
      }) =>
        result.ruleId === 'missing' &&
        result.locations[0]?.physicalLocation.artifactLocation.uri === 'site/index.html',
    );
    expect(missing).toMatchObject({
      level: 'error',
      ruleIndex: 0,
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uriBaseId: '%SRCROOT%' },
            region: { startLine: 11, startColumn: 3 },
          },
        },
      ],
    });
    expect(missing.message.text).toContain('coffee.jpg');
    const warning = run.results.find((result: { ruleId: string }) => result.ruleId === 'decorative-with-alt');
    expect(warning.level).toBe('warning');
    // ![](src) is a missing alt in Markdown, with or without the pixel check.
    const guide = run.results.filter(
      (result: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) =>
        result.locations[0]?.physicalLocation.artifactLocation.uri === 'site/docs/guide.md',
    );
    expect(guide.map((result: { ruleId: string }) => result.ruleId)).toEqual([
      'file-name',
      'missing',
      'missing',
    ]);
    // Each result says whose the alt is (ADR 057): the author's, or none.
    expect(guide[0].properties).toMatchObject({ alt: 'chelsea.jpg', origin: 'human' });
    expect(missing.properties).toMatchObject({ alt: null, origin: null });
  });

  it('writes JUnit XML with one test case per image and failures per --fail-on', () => {
    expect(junit.code).toBe(1);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit.stdout);
    const suites = [parsed.testsuites.testsuite].flat() as Array<{
      name: string;
      tests: string;
      failures: string;
      testcase: unknown;
    }>;
    const index = suites.find((suite) => suite.name === 'site/index.html');
    const cases = [index?.testcase].flat() as Array<{
      name: string;
      failure?: { type: string; message: string };
    }>;
    expect(cases).toHaveLength(6);
    expect(cases.find((c) => c.name.includes('rocket.jpg'))?.failure).toBeUndefined();
    expect(cases.find((c) => c.name === 'site/index.html:11:3 site/img/coffee.jpg')?.failure).toMatchObject({
      type: 'fail',
      message: 'missing',
    });
    // --fail-on warning: the warning is a failure too.
    expect(cases.find((c) => c.name.includes('spacer.gif'))?.failure).toMatchObject({ type: 'warning' });
    expect(parsed.testsuites.tests).toBe('11');
  });

  it('prints a readable report with file:line:column and a summary', () => {
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('site/index.html:11:3  FAIL  site/img/coffee.jpg');
    expect(text.stdout).toContain('✗ missing (WCAG 1.1.1): The image “coffee.jpg” has no alt attribute');
    expect(text.stdout).toContain('site/docs/guide.md:7:1  FAIL  site/img/chelsea.jpg');
    expect(text.stdout).toMatch(
      /3 pages, 11 images: 6 fail, 1 warning, 3 pass, 1 decorative, score \d+%\.\n$/,
    );
  });

  it('exits 1 with --fail-on at a level found, 0 when the pages are clean', () => {
    expect(failOnFail.code).toBe(1);
    expect(JSON.parse(failOnFail.stdout).summary.fail).toBe(6);
    expect(failOnWarning.code).toBe(1);
    expect(cleanPage.code).toBe(0);
    expect(cleanPage.stdout).toContain('1 page, 1 image: 0 fail, 0 warning, 1 pass');
  });
});

describe('altwise audit <url>', () => {
  let server: Server;
  let origin: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      requests.push(request.url ?? '');
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
      const file = join(site, path.endsWith('/') ? `${path}index.html` : path);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || !file.startsWith(site)) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const types: Record<string, string> = {
        '.html': 'text/html; charset=utf-8',
        '.png': 'image/png',
        '.jpg': 'image/jpeg',
      };
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(await readFile(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a local server without --allow-private, in words, fetching nothing', async () => {
    const run = await altwise(['audit', `${origin}/`, '--no-pixels'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is on a private or local address');
    expect(run.stderr).toContain('--allow-private');
    expect(requests).toEqual([]);
  });

  it('audits a local server with --allow-private: the start page and the pages it links to', async () => {
    const run = await altwise(
      ['audit', `${origin}/`, '--allow-private', '--no-pixels', '--format', 'json', '--fail-on', 'fail'],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    const site = JSON.parse(run.stdout) as JsonReport;
    expect(site.summary.pages).toBe(2);
    const coffee = site.images.find((image) => image.image === `${origin}/img/coffee.jpg`);
    expect(coffee).toMatchObject({ page: `${origin}/`, line: null, problems: [{ code: 'missing' }] });
    expect(site.images.some((image) => image.page === `${origin}/about.html`)).toBe(true);
    expect(requests).toContain('/robots.txt');
  });

  it('says so when --max-pages stops the crawl', async () => {
    const run = await altwise(['audit', `${origin}/`, '--allow-private', '--no-pixels', '--max-pages', '1'], {
      cwd: dir,
    });
    expect(run.stdout).toContain('Only the first page was audited; --max-pages reads more (up to 500).');
    expect(run.stdout).toContain('1 page, 6 images');
  });
});

describe('altwise audit with bad input', () => {
  it('stops with exit 2 and words for a missing folder, an unknown format or --max-pages out of range', async () => {
    const [missing, format, pages] = await Promise.all([
      altwise(['audit', 'no-such-folder'], { cwd: dir }),
      altwise(['audit', 'site', '--format', 'xml'], { cwd: dir }),
      altwise(['audit', 'http://example.com', '--max-pages', '0'], { cwd: dir }),
    ]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('no-such-folder does not exist');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be text, json, sarif or junit, not "xml"');
    expect(pages.code).toBe(2);
    expect(pages.stderr).toContain('--max-pages must be a whole number from 1 to 500');
  });

  it('reports a binary file named .html and a 20 MB HTML file in words, audits the rest, exits 2', async () => {
    const bad = join(dir, 'bad');
    await makeSite(bad);
    await writeFile(
      join(bad, 'binary.html'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe]),
    );
    await writeFile(join(bad, 'huge.html'), `<p>${'a'.repeat(20 * 1024 * 1024)}</p><img src="x.png">`);
    const run = await altwise(['audit', 'bad', '--no-pixels', '--format', 'json'], { cwd: dir });
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout) as JsonReport;
    expect(result.summary.pages).toBe(3);
    expect(result.notices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'error',
          page: 'bad/binary.html',
          message: 'bad/binary.html is not a text file (it holds binary data), so it was not read.',
        }),
        expect.objectContaining({
          level: 'error',
          page: 'bad/huge.html',
          message: 'bad/huge.html is 20 MB, more than the 5 MB a page may be, so it was not read.',
        }),
      ]),
    );
    expect(run.stderr).toContain('bad/huge.html is 20 MB');
  });

  it('leaves out a Markdown image with a javascript: URL, says so, and never renders it', async () => {
    const folder = join(dir, 'script');
    await makeSite(folder);
    await writeFile(
      join(folder, 'docs', 'script.md'),
      '# Tricks\n\nClick ![Run me](javascript:alert(document.cookie)) now.\n\n![A rocket](../img/rocket.jpg)\n',
    );
    const run = await altwise(['audit', 'script/docs/script.md', '--no-pixels', '--format', 'json'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as JsonReport;
    expect(result.images.map((image) => image.image)).toEqual(['script/img/rocket.jpg']);
    expect(result.notices).toEqual([
      {
        level: 'note',
        page: 'script/docs/script.md',
        line: 3,
        message:
          'The image ![Run me](javascript:alert(document.cookie)) has a javascript: address, which is not an image; it was left out of the audit and is never fetched or changed.',
      },
    ]);
  });
});
