import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord } from './csv.ts';

describe('the shared CSV writer', () => {
  it('quotes a cell only when it needs it (RFC 4180)', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "cheese"')).toBe('"say ""cheese"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvRecord(['a', '', 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","Click")', `"'=HYPERLINK(""http://evil.example"",""Click"")"`],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['Tulips = spring', 'Tulips = spring'],
    ['', ''],
  ])('writes %j so that no spreadsheet runs it as a formula', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
