import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageWithEmbeddedText } from '../embedded-fixtures.ts';

/**
 * `altwise describe` reads the alt text embedded in a file as the API does (ADR 055): the real CLI
 * in a child process with the real offline engine; a manifest's own existing alt wins over it.
 */

const bin = join(import.meta.dirname, '..', '..', 'bin', 'altwise.mjs');
const altText = 'Harbour at dawn with three fishing boats';
const extendedDescription = 'Three blue fishing boats are moored at a stone quay; mist lies on the water.';

let dir = '';
let rows: {
  id: string;
  altText: string;
  reasons: { source: string; detail: string }[];
  longDescription: string | null;
  origin: string;
}[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-embedded-'));
  await writeFile(
    join(dir, 'harbour.jpg'),
    await imageWithEmbeddedText({ altText, extendedDescription }, 'jpeg', 96),
  );
  const manifest = [
    { id: 'file-alt', image: 'harbour.jpg' },
    { id: 'page-alt', image: 'harbour.jpg', context: { existingAlt: 'Fishing boats in Whitby harbour' } },
  ];
  await writeFile(join(dir, 'items.jsonl'), `${manifest.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, 'describe', '--manifest', 'items.jsonl', '--json'],
    {
      cwd: dir,
      maxBuffer: 4 * 1024 * 1024,
    },
  );
  rows = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('altwise describe with embedded metadata', () => {
  it('keeps the IPTC alt text with the embedded reason and the extended description', () => {
    const row = rows.find((r) => r.id === 'file-alt');
    expect(row?.altText).toBe(`${altText}.`);
    expect(row?.reasons).toContainEqual({
      source: 'embedded',
      detail: `IPTC Alt Text (Accessibility): ${altText}`,
    });
    expect(row?.longDescription).toBe(extendedDescription);
    // Kept from the file's metadata (ADR 057).
    expect(row?.origin).toBe('embedded');
  });

  it('lets the page’s own alt win over the embedded one', () => {
    const row = rows.find((r) => r.id === 'page-alt');
    expect(row?.altText).toMatch(/Whitby/);
    expect(row?.reasons.map((reason) => reason.source)).not.toContain('embedded');
    expect(row?.longDescription).toBe(extendedDescription);
  });
});
