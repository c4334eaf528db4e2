import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../bin/audit-report.ts';
import { altwise, makeSite, type Run } from './static-site.ts';

/**
 * `altwise fix` on the static-site fixture with the real offline engine: a diff run, a --write run
 * and its second run, and a --review run answered through stdin. Each run is the CLI in this process,
 * as the binary runs it, on its own copy of the site.
 */

const pages = ['index.html', 'about.html', join('docs', 'guide.md')];

let dir: string;
let original: Record<string, string>;
let diffRun: Run;
let writeRun: Run;
let written: Record<string, string>;

const readPages = async (site: string) =>
  Object.fromEntries(
    await Promise.all(pages.map(async (page) => [page, await readFile(join(site, page), 'utf8')])),
  );

/** The line without its alt: `alt="…"` in HTML, the label of `![…](` in Markdown. */
const withoutAlt = (line: string) =>
  line.replace(/\s+alt=("[^"]*"|'[^']*'|[^\s>]*)/i, '').replace(/!\[(?:\\.|[^\]\\])*\]\(/g, '![](');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-fix-'));
  const first = await makeSite(join(dir, 'first'));
  const second = await makeSite(join(dir, 'second'));
  original = await readPages(first);
  [diffRun, writeRun] = await Promise.all([
    altwise(['fix', 'first'], { cwd: dir }),
    altwise(['fix', 'second', '--write'], { cwd: dir }),
  ]);
  written = await readPages(second);
}, 240_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('altwise fix <folder>', () => {
  it('prints a unified diff and changes no file without --write', async () => {
    expect(diffRun.code).toBe(0);
    expect(await readPages(join(dir, 'first'))).toEqual(original);
    expect(diffRun.stdout).toContain('--- a/first/index.html\n+++ b/first/index.html\n');
    expect(diffRun.stdout).toContain('--- a/first/docs/guide.md\n+++ b/first/docs/guide.md\n');
    expect(diffRun.stdout).not.toContain('--- a/first/about.html');
    expect(diffRun.stderr).toContain('4 alt texts in 2 files to write');
    // The three photos nothing grounds are listed for a person, never written (ADR 067).
    expect(diffRun.stderr).toContain('first/img/coffee.jpg needs your words');
    // The diff is exactly what --write writes (the engine is deterministic).
    for (const patch of parsePatch(diffRun.stdout)) {
      const page = (patch.oldFileName ?? '').replace(/^a\/first\//, '');
      expect(applyPatch(original[page] as string, patch)).toBe(written[page]);
    }
  });

  it('writes the alt text in place with --write: only the alt changes, good alt untouched', () => {
    expect(writeRun.code).toBe(0);
    expect(written['about.html']).toBe(original['about.html']);
    for (const page of ['index.html', join('docs', 'guide.md')]) {
      const before = (original[page] as string).split('\n');
      const after = (written[page] as string).split('\n');
      expect(after).toHaveLength(before.length);
      const changed = before.flatMap((line, n) => (line === after[n] ? [] : [n]));
      expect(changed.length).toBeGreaterThan(0);
      for (const n of changed) expect(withoutAlt(after[n] as string)).toBe(withoutAlt(before[n] as string));
    }
    const index = written['index.html'] as string;
    expect(index).toContain('<img src="img/rocket.jpg" alt="A rocket lifting off from the launch pad">');
    // A photo nothing grounds keeps its missing alt: no filler is written (ADR 067).
    const coffeeLine = (html: string) => html.split('\n').find((line) => line.includes('img/coffee.jpg'));
    expect(coffeeLine(index)).toBe(coffeeLine(original['index.html'] as string));
    // The three-line tag keeps its layout.
    expect(index).toMatch(
      /<img {2}class="hero"\n {8}src="img\/astronaut\.jpg"\n {8}alt="(?!IMG_2041)[^"]+">/,
    );
    // A warning (decorative with alt) is not a failure: untouched.
    expect(index).toContain('<img src="img/spacer.gif" alt="spacer image">');
    // The image of text gets the text it shows.
    expect(index).toMatch(/<img src="img\/opening-hours\.png" alt="Open daily,? 9 am to 5 pm">/);
    const guide = written[join('docs', 'guide.md')] as string;
    // The photo named by its file name needs a person's words: listed, left as it was.
    expect(guide).toContain('![chelsea.jpg]');
    expect(guide).toContain('<img src="../img/rocket.jpg">');
    // An empty Markdown label is a missing alt, and the image of text gets the text it shows.
    expect(guide).toMatch(/!\[Open daily,? 9 am to 5 pm\]\(/);
    expect(writeRun.stdout).toContain('second/index.html:12: alt "IMG_2041.jpg" → ');
    expect(writeRun.stderr).toContain('4 alt texts in 2 files written.');
    expect(writeRun.stderr).toContain('3 images need your words.');
  });

  it('finds nothing to fix on a second run, and changes nothing', async () => {
    const again = await altwise(['fix', 'second', '--write'], { cwd: dir });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toContain('Nothing to fix');
    expect(again.stderr).toContain('3 images need your words.');
    expect(await readPages(join(dir, 'second'))).toEqual(written);
  }, 120_000);
});

describe('altwise fix --review', () => {
  it('asks for each change: y writes, n skips, e writes your words (escaped), q stops', async () => {
    const site = await makeSite(join(dir, 'review'));
    const answers = [
      'n', // astronaut.jpg: left as it was
      'e', // camera.jpg: your own words, with characters HTML must escape
      'Club "about" page & more',
      'maybe', // not an answer: asked again
      'q', // opening-hours.png in Markdown: left unanswered
    ];
    const run = await altwise(['fix', 'review', '--review', '--write', '--no-pixels'], {
      cwd: dir,
      input: `${answers.join('\n')}\n`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Write this alt text? [y]es, [n]o, [e]dit, [q]uit (1/3)');
    expect(run.stderr).toContain('Answer y, n, e or q.');
    expect(run.stderr).toMatch(/Stopped: 1 change left unanswered and not made\./);
    const after = await readPages(site);
    const index = after['index.html'] as string;
    expect(index).toContain('alt="IMG_2041.jpg"');
    expect(index).toContain('<img src="img/camera.jpg" alt="Club &quot;about&quot; page &amp; more">');
    // Without the pixel check, alt="" on the image of text does not fail: never asked, untouched.
    expect(index).toContain('<img src="img/opening-hours.png" alt="">');
    // Unanswered after q, and the photos that need words: the Markdown page is as it was.
    const fresh = await readPages(await makeSite(join(dir, 'review-original')));
    expect(after[join('docs', 'guide.md')]).toBe(fresh[join('docs', 'guide.md')]);

    // What a browser gets back from the written files is the words typed.
    const audit = await altwise(['audit', 'review', '--no-pixels', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(audit.stdout) as JsonReport;
    expect(report.images.find((image) => image.image === 'review/img/camera.jpg')?.alt).toBe(
      'Club "about" page & more',
    );
  }, 240_000);
});

describe('altwise fix with bad input', () => {
  it('refuses a URL, a missing folder and an unknown option with exit 2 and words', async () => {
    const [url, missing, option] = await Promise.all([
      altwise(['fix', 'https://example.com/'], { cwd: dir }),
      altwise(['fix', 'no-such-folder'], { cwd: dir }),
      altwise(['fix', 'first', '--force'], { cwd: dir }),
    ]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain(
      'https://example.com/ is a URL: fix edits files, so give a folder or a file.',
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no-such-folder does not exist');
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--force'");
  });
});
