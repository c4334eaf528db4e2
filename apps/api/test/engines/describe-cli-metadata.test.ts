import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmbeddedText } from '../../src/engines/embedded-text.ts';
import { exiftoolConfigPath } from '../../src/modules/image-metadata/exiftool.ts';
import { imageWithEmbeddedText } from '../embedded-fixtures.ts';

/**
 * `altwise describe … --write-metadata <out-dir>` (ADR 064, ADR 071): the real CLI with the real
 * offline engine writes a copy of each described image with its alt text in the file's metadata,
 * read back with ExifTool; the originals stay as they were, a copy that would land on its original
 * is refused, and so is a copy whose name in the output folder is a symbolic link.
 */

const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'altwise.mjs');
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'images');
const kiteAlt = 'Red kite gliding over a heather-covered hill';
const hash = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

let dir = '';
let stderr = '';
let linkedStderr = '';
const victim = 'Another file the link points to.\n';
let rows: { id: string; image: string; altText: string }[] = [];
const before = new Map<string, string>();

const exiftoolRead = async (file: string) =>
  (
    JSON.parse(
      (
        await run('exiftool', [
          '-config',
          exiftoolConfigPath,
          '-j',
          '-XMP-iptcCore:all',
          '-XMP-altwise:all',
          file,
        ])
      ).stdout,
    ) as Record<string, string>[]
  )[0] ?? {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-metadata-'));
  await mkdir(join(dir, 'in'));
  await writeFile(join(dir, 'in', 'kite.jpg'), await imageWithEmbeddedText({ altText: kiteAlt }, 'jpeg', 96));
  await copyFile(join(fixtures, 'logo.png'), join(dir, 'in', 'logo.png'));
  await copyFile(join(fixtures, 'rocket.jpg'), join(dir, 'rocket.jpg'));
  for (const file of ['in/kite.jpg', 'in/logo.png', 'rocket.jpg'])
    before.set(file, await hash(join(dir, file)));
  // An output folder where kite.jpg is a link to another file.
  await mkdir(join(dir, 'linked'));
  await writeFile(join(dir, 'victim.txt'), victim);
  await symlink(join(dir, 'victim.txt'), join(dir, 'linked', 'kite.jpg'));
  // The copies go to the current folder: rocket.jpg's copy would be rocket.jpg itself.
  const [result, linked] = await Promise.all([
    run(
      process.execPath,
      [bin, 'describe', 'in/kite.jpg', 'in/logo.png', 'rocket.jpg', '--json', '--write-metadata', '.'],
      { cwd: dir, maxBuffer: 4 * 1024 * 1024 },
    ),
    run(process.execPath, [bin, 'describe', 'in/kite.jpg', '--json', '--write-metadata', 'linked'], {
      cwd: dir,
      maxBuffer: 4 * 1024 * 1024,
    }),
  ]);
  linkedStderr = linked.stderr;
  stderr = result.stderr;
  rows = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('altwise describe --write-metadata', () => {
  it('writes each copy with its alt text and origin, which ExifTool and our own reader read back', async () => {
    const kite = rows.find((row) => row.image === 'in/kite.jpg');
    expect(kite?.altText).toBe(`${kiteAlt}.`);
    expect(await exiftoolRead(join(dir, 'kite.jpg'))).toMatchObject({
      AltTextAccessibility: `${kiteAlt}.`,
      AltTextOrigin: 'embedded',
    });
    const logo = rows.find((row) => row.image === 'in/logo.png');
    expect(await exiftoolRead(join(dir, 'logo.png'))).toMatchObject({
      AltTextAccessibility: logo?.altText,
      AltTextOrigin: 'ai',
      AltTextEngine: expect.stringMatching(/^offline\//),
    });
    expect((await readEmbeddedText(await readFile(join(dir, 'logo.png'))))?.altText).toBe(logo?.altText);
    expect(stderr).toContain(`altwise: wrote ${join(dir, 'kite.jpg')} with its alt text`);
  });

  it('never changes an original, and refuses a copy that would overwrite it', async () => {
    for (const [file, sum] of before) expect(await hash(join(dir, file)), file).toBe(sum);
    expect(stderr).toContain(
      `no copy with alt text for rocket.jpg: the copy would overwrite the original ${join(dir, 'rocket.jpg')}`,
    );
    // The photo itself is still described (its alt, or a request for words, ADR 067).
    expect(rows.find((row) => row.image === 'rocket.jpg')).toBeDefined();
  });

  it('never writes through a symbolic link in the output folder', async () => {
    expect(linkedStderr).toContain(`${join(dir, 'linked', 'kite.jpg')} is a symbolic link`);
    expect(await readFile(join(dir, 'victim.txt'), 'utf8')).toBe(victim);
    expect((await lstat(join(dir, 'linked', 'kite.jpg'))).isSymbolicLink()).toBe(true);
  });
});
