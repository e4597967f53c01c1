import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './admin.csv.ts';

/** The audit trail's CSV (decision 071): RFC 4180 quoting, and no cell a spreadsheet runs as a formula. */
describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ['crlf\r\n', '"crlf\r\n"'],
    ['=1+2', "'=1+2"],
    ['+44 20 7946 0000', "'+44 20 7946 0000"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tindented', "'\tindented"],
    ['\rreturned', `"'\rreturned"`],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['=cmd,with comma', `"'=cmd,with comma"`],
    ['a=b', 'a=b'],
    ['ünïcödé ✓', 'ünïcödé ✓'],
    ["'already quoted", "'already quoted"],
  ])('%j -> %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('toCsv', () => {
  it('writes the header row first and ends every line in CRLF', () => {
    expect(
      toCsv(
        ['seq', 'reason'],
        [
          ['1', 'ok'],
          ['2', 'said "no", twice'],
        ],
      ),
    ).toBe('seq,reason\r\n1,ok\r\n2,"said ""no"", twice"\r\n');
  });

  it('a header alone when there are no rows', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
  });
});
