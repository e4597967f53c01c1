/**
 * CSV as RFC 4180 writes it (decision 071): fields with a comma, a quote, a CR or an LF are quoted,
 * quotes doubled, lines end in CRLF. A cell that a spreadsheet would read as a formula (it starts with
 * =, +, -, @, or a tab or CR that some readers skip) gets a leading apostrophe first (OWASP's advice
 * on CSV injection), so an email or a reason someone typed never runs in the reader's spreadsheet.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a value made safe for spreadsheets, then quoted when RFC 4180 needs it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The whole file: the header row, then one line per row, each ending in CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
