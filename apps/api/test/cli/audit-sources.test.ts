import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AltEdit,
  FOLDER_ORIGIN,
  lineIndex,
  localImagePath,
  locateHtmlImages,
  readPageFile,
  type SourcePage,
} from '../../bin/audit-sources.ts';
import { altReplacement } from '../../bin/fix-command.ts';
import { readPage } from '../../src/pages/extract-page.ts';

/**
 * Where `altwise audit` says an image is, and which bytes `altwise fix` edits: in-process, on
 * awkward HTML and Markdown written here (no engine, no child process).
 */

const locate = (html: string) => locateHtmlImages(html, lineIndex(html));

/** The text with the image's alt set to `alt` through the edit fix would make. */
function withAlt(text: string, edit: AltEdit | undefined, alt: string): string {
  if (!edit) throw new Error('no edit');
  const piece = altReplacement(edit, alt);
  return text.slice(0, piece.start) + piece.text + text.slice(piece.end);
}

describe('HTML image locations and alt edits', () => {
  it('edits only the alt bytes of unquoted, bare, single-quoted, missing and duplicated alts', () => {
    const cases: Array<[string, string, string]> = [
      ['<IMG SRC=a.png ALT=old>', 'New & improved', '<IMG SRC=a.png ALT="New &amp; improved">'],
      ['<img alt src="b.png">', 'A "quoted" word', '<img alt="A &quot;quoted&quot; word" src="b.png">'],
      ["<img src='c.png' alt='x'>", `Tom's "cat"`, `<img src='c.png' alt='Tom&#39;s "cat"'>`],
      ['<img src="d.png" width=10 />', 'D', '<img src="d.png" alt="D" width=10 />'],
      ['<img srcset="e.png 2x">', 'E', '<img alt="E" srcset="e.png 2x">'],
      ['<img alt="first" alt="second" src=f.png>', 'F', '<img alt="F" alt="second" src=f.png>'],
      ['<img src="g.png" alt=>', 'G', '<img src="g.png" alt="G">'],
      ['<input type="image" src="go.png">', 'Search', '<input type="image" src="go.png" alt="Search">'],
    ];
    for (const [html, alt, expected] of cases) {
      const [image] = locate(html);
      expect({ html, result: withAlt(html, image?.edit, alt) }).toEqual({ html, result: expected });
      // What the page reader then reads is the words given, unescaped.
      expect(readPage(withAlt(html, image?.edit, alt), new URL('https://x.test/')).images[0]?.alt).toBe(alt);
    }
  });

  it('lists the same elements as the page reader, in order, with their lines and columns', () => {
    const html = [
      '<!doctype html><title>T</title>',
      '<template><img src="in-template.png"></template>',
      '<div role="img" aria-label="Chart"><img src="inside-role-img.png"></div>',
      '<script>document.write("<img src=nope.png>")</script>',
      '  <img',
      '    src="multi.png"',
      '    alt="">',
      '<a href="/x"><input type=image src=go.png alt=Go></a><img src="last.png">',
    ].join('\n');
    const located = locate(html);
    const read = readPage(html, new URL('https://x.test/')).images;
    expect(located.map((image) => image.element)).toEqual(read.map((image) => image.element));
    expect(read.map((image) => image.src)).toEqual([
      'https://x.test/#div-1',
      'https://x.test/multi.png',
      'https://x.test/go.png',
      'https://x.test/last.png',
    ]);
    expect(located.map(({ line, column }) => [line, column])).toEqual([
      [3, 1],
      [5, 3],
      [8, 14],
      [8, 54],
    ]);
    // role=img is named by aria-label: fix never edits it.
    expect(located[0]?.edit).toBeUndefined();
    expect(withAlt(html, located[1]?.edit, 'Multi').split('\n').slice(4, 7)).toEqual([
      '  <img',
      '    src="multi.png"',
      '    alt="Multi">',
    ]);
  });
});

describe('Markdown image locations', () => {
  let dir: string;
  const read = async (name: string, text: string) => {
    await writeFile(join(dir, name), text);
    return (await readPageFile(join(dir, name), dir)) as SourcePage;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'altwise-sources-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds each image, not the same text in a code span before it', async () => {
    const text = [
      '# Title',
      '',
      'Write `![x](a.png)` to show',
      'an image: ![x](a.png) and a linked one [![logo](logo.png)](/).',
      '',
      '> Quoted ![q](q.png)',
      '',
      '- item ![in list](l.png)',
      '',
      '![ref][r]',
      '',
      '[r]: r.png',
      '',
      '<p><img src="raw.png"></p>',
    ].join('\n');
    const page = await read('page.md', text);
    expect(page.images.map(({ line, column }) => [line, column])).toEqual([
      [4, 11],
      [4, 41],
      [6, 10],
      [8, 8],
      [10, 1],
      [14, 4],
    ]);
    const fixed = withAlt(text, page.images[0]?.edit, 'An [example] image');
    expect(fixed.split('\n').slice(2, 4)).toEqual([
      'Write `![x](a.png)` to show',
      'an image: ![An \\[example\\] image](a.png) and a linked one [![logo](logo.png)](/).',
    ]);
    const again = await read('again.md', fixed);
    const alts = readPage(again.html, new URL(again.pageUrl)).images.map((image) => image.alt);
    expect(alts[0]).toBe('An [example] image');
    expect(withAlt(text, page.images[5]?.edit, 'Raw').split('\n')[13]).toBe(
      '<p><img src="raw.png" alt="Raw"></p>',
    );
  });

  it('keeps a byte-order mark and CRLF line ends out of the way', async () => {
    const text = '\ufeff# T\r\n\r\n![old](a.png)\r\n';
    const page = await read('bom.md', text);
    expect(page.text).toBe(text);
    expect(page.images[0]).toMatchObject({ line: 3, column: 1 });
    expect(withAlt(text, page.images[0]?.edit, 'New')).toBe('\ufeff# T\r\n\r\n![New](a.png)\r\n');
  });

  it('reads images from the folder only: no address leaves it', () => {
    expect(localImagePath('/site', `${FOLDER_ORIGIN}/img/a%20b.png`)).toBe('/site/img/a b.png');
    expect(localImagePath('/site', `${FOLDER_ORIGIN}/../../etc/passwd`)).toBe('/site/etc/passwd');
    expect(localImagePath('/site', `${FOLDER_ORIGIN}/%2e%2e/%2e%2e/etc/passwd`)).toBe('/site/etc/passwd');
    expect(localImagePath('/site', 'https://cdn.example.com/a.png')).toBeUndefined();
    expect(localImagePath('/site', 'data:image/png;base64,AAAA')).toBeUndefined();
  });
});
