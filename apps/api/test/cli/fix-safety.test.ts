import { spawn } from 'node:child_process';
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixJsonReport } from '../../bin/fix-report.ts';
import { imageWithEmbeddedText } from '../embedded-fixtures.ts';
import { altwise, bin, drawOpeningHours, openingHours, type Run } from './static-site.ts';

/**
 * `altwise fix` with the real offline engine on pages that must not be written the easy way (ADR 058,
 * ADR 071): Markdown images without a label, pages in French and Japanese, images the engine has
 * nothing to say about, a page and an image that are symbolic links, alt text holding terminal escape
 * sequences, and a file that changes while fix waits for an answer.
 */

const images = join(import.meta.dirname, '..', 'fixtures', 'images');
const asRead = openingHours.join(' ');
/** The alt embedded in kite.jpg: a person's words the engine keeps, with or without OCR (ADR 055). */
const kiteAlt = 'Red kite gliding over a heather-covered hill';
const drawKite = async (path: string) =>
  writeFile(path, await imageWithEmbeddedText({ altText: kiteAlt }, 'jpeg', 96));
/** What the offline engine says about the rocket photograph with nothing around it. */
const englishPhrase = /\b(?:photograph|picture|image|rocket|launch|tones?)\b/i;

let dir: string;
let site: string;
let run: Run;
let report: FixJsonReport;
const original: Record<string, string> = {};

const page = (lang: string, body: string) =>
  `<!doctype html>\n<html lang="${lang}"><head><title>Page</title></head><body>\n${body}\n</body></html>\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-fix-safety-'));
  site = join(dir, 'site');
  const outside = join(dir, 'outside');
  await mkdir(join(site, 'img'), { recursive: true });
  await mkdir(outside);
  await copyFile(join(images, 'rocket.jpg'), join(site, 'img', 'rocket.jpg'));
  await drawOpeningHours(join(site, 'img', 'hours.png'));
  await drawKite(join(site, 'img', 'kite.jpg'));
  await sharp({ create: { width: 200, height: 150, channels: 3, background: '#777777' } })
    .png()
    .toFile(join(site, 'img', 'grey.png'));
  // An image that is a link to a file outside the folder.
  await copyFile(join(images, 'rocket.jpg'), join(outside, 'secret.jpg'));
  await symlink(join(outside, 'secret.jpg'), join(site, 'img', 'secret.jpg'));
  // A page that is a link to a page outside the folder, with an image fix would write.
  await writeFile(join(outside, 'real.html'), page('en', '<img src="img/kite.jpg">'));
  await symlink(join(outside, 'real.html'), join(site, 'linked.html'));
  const pages: Record<string, string> = {
    'fr.html': page('fr', '<img src="img/rocket.jpg">\n<img src="img/hours.png">'),
    'ja.html': page('ja', '<p><img src="img/rocket.jpg"></p>\n<p><img src="img/hours.png"></p>'),
    'notes.md': '# Notes\n\n![](img/kite.jpg)\n\n![ ](img/rocket.jpg)\n\n![ ](img/grey.png)\n',
    'secret.html': page('en', '<img src="img/secret.jpg">'),
  };
  for (const [name, text] of Object.entries(pages)) {
    await writeFile(join(site, name), text);
    original[name] = text;
  }
  original['real.html'] = await readFile(join(outside, 'real.html'), 'utf8');
  run = await altwise(['fix', 'site', '--write', '--format', 'json', '--no-pixels'], { cwd: dir });
  report = JSON.parse(run.stdout) as FixJsonReport;
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const inPage = <T extends { page: string }>(list: T[], name: string) =>
  list.filter((item) => item.page === `site/${name}`);

describe('altwise fix on Markdown', () => {
  it('fixes ![](src) and ![ ](src) as missing alt, never leaving an empty label', async () => {
    const notes = await readFile(join(site, 'notes.md'), 'utf8');
    const changes = inPage(report.changes, 'notes.md');
    // The kite gets the words embedded in its file.
    expect(changes.map((change) => [change.line, change.before])).toContainEqual([3, null]);
    expect(notes).toMatch(/!\[Red kite gliding over a heather-covered hill\.?\]\(img\/kite\.jpg\)/);
    // The rocket and the grey picture: nothing publishable, nothing written, the label as it was.
    const needs = inPage(report.needsWords, 'notes.md').map((item) => item.image);
    expect(needs).toContain('site/img/rocket.jpg');
    expect(notes).toContain('![ ](img/rocket.jpg)');
    expect(notes).toContain('![ ](img/grey.png)');
    expect(notes).not.toMatch(/!\[[^\]]*(?:photograph|tones)[^\]]*\]/i);
  });
});

describe('altwise fix never writes filler', () => {
  it('lists each image with nothing publishable as needing words, with the reason, and writes none', () => {
    for (const item of report.needsWords) {
      expect(item.reason.length).toBeGreaterThan(10);
      expect(report.changes.some((change) => change.page === item.page && change.line === item.line)).toBe(
        false,
      );
    }
    for (const change of report.changes) expect(change.after).not.toMatch(/\b(?:photograph|tones?)\b/i);
    expect(report.summary.needsWords).toBe(report.needsWords.length);
  });
});

describe('altwise fix in the language of the page', () => {
  for (const lang of ['fr', 'ja']) {
    it(`writes no English sentence on a page in ${lang}: the text read as it is, or needs words`, async () => {
      const text = await readFile(join(site, `${lang}.html`), 'utf8');
      const written = inPage(report.changes, `${lang}.html`);
      for (const change of written) {
        expect(change.after.replace(/,/g, '')).toBe(asRead);
        expect(change.after).not.toMatch(englishPhrase);
      }
      // The photograph has no text to read: it needs a person's words in the page's language.
      expect(inPage(report.needsWords, `${lang}.html`).map((item) => item.image)).toContain(
        'site/img/rocket.jpg',
      );
      expect(text).toContain('<img src="img/rocket.jpg">');
      expect(text.replace(/ alt="[^"]*"/g, '')).toBe(original[`${lang}.html`]);
    });
  }
});

describe('altwise fix and links', () => {
  it('refuses to write a page that is a symbolic link: the link and its target stay as they were', async () => {
    expect(run.code).toBe(2);
    expect(report.notices.map((notice) => notice.message)).toContainEqual(
      expect.stringContaining('site/linked.html is a symbolic link'),
    );
    expect((await lstat(join(site, 'linked.html'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(site, 'linked.html'))).toBe(join(dir, 'outside', 'real.html'));
    expect(await readFile(join(dir, 'outside', 'real.html'), 'utf8')).toBe(original['real.html']);
    expect(inPage(report.changes, 'linked.html').every((change) => !change.written)).toBe(true);
  });

  it('never reads an image whose real file is outside the folder', async () => {
    expect(inPage(report.leftAlone, 'secret.html')).toEqual([
      expect.objectContaining({
        image: 'site/img/secret.jpg',
        reason: expect.stringContaining('a link to a file outside the folder'),
      }),
    ]);
    expect(await readFile(join(site, 'secret.html'), 'utf8')).toBe(original['secret.html']);
  });
});

/** fix --review in a child process, answering each question through `answer`. */
function review(args: string[], cwd: string, answer: (question: string) => Promise<string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (/Write this alt text\? .*\) $/.test(stderr))
        void answer(stderr).then((line) => child.stdin.write(`${line}\n`), reject);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('altwise fix on the terminal', () => {
  it('says what it really wrote when the file changed meanwhile, and shows control characters', async () => {
    const folder = join(dir, 'changing');
    await mkdir(join(folder, 'img'), { recursive: true });
    await drawKite(join(folder, 'img', 'kite.jpg'));
    await copyFile(join(images, 'rocket.jpg'), join(folder, 'img', 'rocket.jpg'));
    await copyFile(join(images, 'rocket.jpg'), join(folder, 'img', 'photo.jpg'));
    const file = join(folder, 'index.html');
    // An alt with escape sequences (clear the screen, retitle the window, C1 CSI) that still fails.
    const hostile = 'IMG_0001.jpg\u001b[2J\u001b]0;owned\u0007\u009b31m';
    await writeFile(
      file,
      page(
        'en',
        `<img src="img/kite.jpg">\n<img src="img/rocket.jpg" alt="${hostile}">\n<img src="img/photo.jpg">`,
      ),
    );
    let asked = 0;
    const changed = await review(['fix', 'changing', '--review', '--write', '--no-pixels'], dir, async () => {
      asked += 1;
      // Someone saves the page while fix waits for the answer.
      if (asked === 1) await writeFile(file, `${await readFile(file, 'utf8')}<!-- saved -->\n`);
      return asked === 1 ? 'y' : 'q';
    });
    expect(changed.code, changed.stderr).toBe(2);
    expect(changed.stderr).toContain('changing/index.html changed while altwise was working');
    expect(changed.stderr).not.toMatch(/[1-9]\d* alt texts? in [1-9]\d* files? written/);
    expect(changed.stderr).toContain('0 alt texts in 0 files written. 1 alt text not written.');
    expect(await readFile(file, 'utf8')).toContain('<!-- saved -->');
    // No raw ESC, BEL or C1 reaches the terminal; they are shown as \xNN.
    const terminal = changed.stdout + changed.stderr;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point.
    expect(terminal).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(changed.stderr).toMatch(/img\/photo\.jpg needs your words: \S/);

    const audit = await altwise(['audit', 'changing', '--no-pixels'], { cwd: dir });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point.
    expect(audit.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(audit.stdout).toContain('\\x1B[2J');
  }, 300_000);
});
