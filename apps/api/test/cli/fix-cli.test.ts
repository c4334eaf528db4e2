import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../bin/audit-report.ts';
import { altwise, makeSite, type Run } from './static-site.ts';

/**
 * `altwise fix` on the static-site fixture with the real offline engine: a diff run, a --write run
 * and its second run, and a --review run answered through stdin. Each run is a child process on its
 * own copy of the site.
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
    expect(diffRun.stderr).toContain(
      '7 alt texts in 2 files to write (run with --write to change the files).',
    );
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
    // Missing alt: inserted right after src, the rest of the tag as it was.
    expect(index).toMatch(/<img src="img\/coffee\.jpg" alt="[^"]+" width="320">/);
    // The three-line tag keeps its layout.
    expect(index).toMatch(
      /<img {2}class="hero"\n {8}src="img\/astronaut\.jpg"\n {8}alt="(?!IMG_2041)[^"]+">/,
    );
    // A warning (decorative with alt) is not a failure: untouched.
    expect(index).toContain('<img src="img/spacer.gif" alt="spacer image">');
    // The image of text gets the text it shows.
    expect(index).toMatch(/<img src="img\/opening-hours\.png" alt="Open daily,? 9 am to 5 pm">/);
    const guide = written[join('docs', 'guide.md')] as string;
    expect(guide).toContain('![A cup of coffee on a saucer](../img/coffee.jpg)');
    expect(guide).not.toContain('![chelsea.jpg]');
    expect(guide).toMatch(/<img src="\.\.\/img\/rocket\.jpg" alt="[^"]+">/);
    expect(writeRun.stdout).toContain('second/index.html:11: alt (none) → ');
    expect(writeRun.stderr).toContain('7 alt texts in 2 files written.');
  });

  it('finds nothing to fix on a second run, and changes nothing', async () => {
    const again = await altwise(['fix', 'second', '--write'], { cwd: dir });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toContain('Nothing to fix');
    expect(again.stderr).toContain('No image fails the checks.');
    expect(await readPages(join(dir, 'second'))).toEqual(written);
  }, 120_000);
});

describe('altwise fix --review', () => {
  it('asks for each change: y writes, n skips, e writes your words (escaped), q stops', async () => {
    const site = await makeSite(join(dir, 'review'));
    const answers = [
      'y', // coffee.jpg: the engine's text
      'n', // astronaut.jpg: left as it was
      'e', // camera.jpg: your own words, with characters HTML must escape
      'Club "about" page & more',
      'maybe', // not an answer: asked again
      'e', // chelsea.jpg in Markdown: brackets and stars that Markdown must escape
      'A cat [Chelsea] *asleep*',
      'q',
    ];
    const run = await altwise(['fix', 'review', '--review', '--write', '--no-pixels'], {
      cwd: dir,
      input: `${answers.join('\n')}\n`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Write this alt text? [y]es, [n]o, [e]dit, [q]uit (1/');
    expect(run.stderr).toContain('Answer y, n, e or q.');
    expect(run.stderr).toMatch(/Stopped: 1 change left unanswered and not made\./);
    const after = await readPages(site);
    const index = after['index.html'] as string;
    expect(index).toMatch(/<img src="img\/coffee\.jpg" alt="[^"]+" width="320">/);
    expect(index).toContain('alt="IMG_2041.jpg"');
    expect(index).toContain('<img src="img/camera.jpg" alt="Club &quot;about&quot; page &amp; more">');
    // Without the pixel check, alt="" on the image of text does not fail: never asked, untouched.
    expect(index).toContain('<img src="img/opening-hours.png" alt="">');
    const guide = after[join('docs', 'guide.md')] as string;
    expect(guide).toContain('![A cat \\[Chelsea\\] \\*asleep\\*](../img/chelsea.jpg)');
    // Unanswered after q: the raw <img> in the Markdown keeps its missing alt.
    expect(guide).toContain('<img src="../img/rocket.jpg">');

    // What a browser gets back from the written files is the words typed.
    const audit = await altwise(['audit', 'review', '--no-pixels', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(audit.stdout) as JsonReport;
    expect(report.images.find((image) => image.image === 'review/img/chelsea.jpg')?.alt).toBe(
      'A cat [Chelsea] *asleep*',
    );
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
