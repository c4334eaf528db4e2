import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardFormula } from '../src/lib/csv.ts';
import {
  type AuditReportRow,
  altAttributeOf,
  auditReportColumns,
  buildAuditCsv,
} from '../src/modules/audit/report.ts';

/** The audit's CSV export (point 5): what a spreadsheet or a CSV reader gets. */

/** An RFC 4180 reader, written here independently of the writer so that the round trip means something. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index++;
    } else field += char;
  }
  if (field || record.length) throw new Error('the last record does not end in CRLF');
  return records;
}

const row = (fields: Partial<AuditReportRow> = {}): AuditReportRow => ({
  pageUrl: 'https://shop.example/blog/spring',
  imageUrl: 'https://shop.example/media/tulips.jpg',
  existingAlt: 'IMG_2041.jpg',
  verdict: 'fail',
  problemCodes: ['file-name', 'repeated'],
  wcag: ['1.1.1'],
  suggestedAlt: 'Red tulips in a glass vase',
  reviewState: 'pending',
  ...fields,
});

const bodyOf = (csv: string) => {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return csv.slice(1);
};

describe('buildAuditCsv', () => {
  it('writes a header and one CRLF-terminated record per image, in column order', () => {
    const csv = buildAuditCsv([
      row(),
      row({ existingAlt: null, verdict: 'fail', problemCodes: ['missing'] }),
      row({ existingAlt: '', verdict: 'decorative', problemCodes: [] }),
    ]);
    expect(bodyOf(csv)).toBe(
      'Page URL,Image URL,Existing alt,Verdict,Problem codes,WCAG criteria,Suggested alt,Review state,Long description,Origin,Alt attribute\r\n' +
        'https://shop.example/blog/spring,https://shop.example/media/tulips.jpg,IMG_2041.jpg,fail,file-name; repeated,1.1.1,Red tulips in a glass vase,pending,,,present\r\n' +
        'https://shop.example/blog/spring,https://shop.example/media/tulips.jpg,,fail,missing,1.1.1,Red tulips in a glass vase,pending,,,missing\r\n' +
        'https://shop.example/blog/spring,https://shop.example/media/tulips.jpg,,decorative,,1.1.1,Red tulips in a glass vase,pending,,,empty\r\n',
    );
    expect(auditReportColumns.map((column) => column.key)).toEqual([
      'pageUrl',
      'imageUrl',
      'existingAlt',
      'verdict',
      'problemCodes',
      'wcag',
      'suggestedAlt',
      'reviewState',
      'longDescription',
      'origin',
      'altAttribute',
    ]);
  });

  it('writes only the header for an audit without images', () => {
    expect(parseCsv(bodyOf(buildAuditCsv([])))).toHaveLength(1);
  });

  it('leaves absent suggestions and review states empty, and joins several criteria', () => {
    const [, cells] = parseCsv(
      bodyOf(
        buildAuditCsv([
          {
            pageUrl: 'https://shop.example/',
            imageUrl: 'https://shop.example/logo.svg',
            existingAlt: '',
            verdict: 'fail',
            problemCodes: ['link-without-purpose', 'empty-but-informative'],
            wcag: ['1.1.1', '2.4.4', '4.1.2'],
          },
        ]),
      ),
    );
    expect(cells).toEqual([
      'https://shop.example/',
      'https://shop.example/logo.svg',
      '',
      'fail',
      'link-without-purpose; empty-but-informative',
      '1.1.1; 2.4.4; 4.1.2',
      '',
      '',
      '',
      '',
      'empty',
    ]);
  });

  it('writes a chart’s long description last, line breaks quoted and a leading "=" guarded', () => {
    const longDescription = 'Visitors per month.\nJanuary: 1,200; February: 1,450';
    const [, cells] = parseCsv(bodyOf(buildAuditCsv([row({ longDescription })])));
    expect(cells?.[8]).toBe(longDescription);
    const [, hostile] = parseCsv(bodyOf(buildAuditCsv([row({ longDescription: '=1+2' })])));
    expect(hostile?.[8]).toBe("'=1+2");
  });

  it('quotes commas, double quotes and line breaks (RFC 4180)', () => {
    const alt = 'Tulips, "Queen of Night",\r\nin a vase\nat noon';
    const csv = buildAuditCsv([row({ existingAlt: alt })]);
    expect(bodyOf(csv)).toContain('"Tulips, ""Queen of Night"",\r\nin a vase\nat noon"');
    expect(parseCsv(bodyOf(csv))[1]?.[2]).toBe(alt);
  });

  it.each([
    ['=HYPERLINK("http://evil.example","Click")', `'=HYPERLINK("http://evil.example","Click")`],
    ['+1 555 0100', "'+1 555 0100"],
    ['-', "'-"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tTab first', "'\tTab first"],
    ['Tulips = spring', 'Tulips = spring'],
    ['', ''],
  ])('guards a cell against formulas: %j', (alt, cell) => {
    expect(guardFormula(alt)).toBe(cell);
    const [, cells] = parseCsv(bodyOf(buildAuditCsv([row({ existingAlt: alt, suggestedAlt: alt })])));
    expect(cells?.[2]).toBe(cell);
    expect(cells?.[6]).toBe(cell);
  });

  it('reads back every cell as written, whatever the text (round trip through an RFC 4180 reader)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            pageUrl: text,
            imageUrl: text,
            existingAlt: fc.option(text, { nil: null }),
            verdict: fc.constantFrom(
              'pass' as const,
              'fail' as const,
              'warning' as const,
              'decorative' as const,
            ),
            problemCodes: fc.array(text, { maxLength: 3 }),
            wcag: fc.array(text, { maxLength: 3 }),
            suggestedAlt: fc.option(text, { nil: undefined }),
            reviewState: fc.option(text, { nil: undefined }),
            longDescription: fc.option(text, { nil: undefined }),
            origin: fc.option(text, { nil: undefined }),
          }),
          { maxLength: 5 },
        ),
        (rows) => {
          const records = parseCsv(bodyOf(buildAuditCsv(rows)));
          expect(records).toHaveLength(rows.length + 1);
          for (const [index, original] of rows.entries()) {
            expect(records[index + 1]).toEqual([
              guardFormula(original.pageUrl),
              guardFormula(original.imageUrl),
              guardFormula(original.existingAlt ?? ''),
              original.verdict,
              guardFormula(original.problemCodes.join('; ')),
              guardFormula(original.wcag.join('; ')),
              guardFormula(original.suggestedAlt ?? ''),
              guardFormula(original.reviewState ?? ''),
              guardFormula(original.longDescription ?? ''),
              guardFormula(original.origin ?? ''),
              altAttributeOf(original.existingAlt),
            ]);
          }
        },
      ),
      { seed: 13, numRuns: 300 },
    );
  });
});
