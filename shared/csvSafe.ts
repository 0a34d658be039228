/**
 * Spreadsheet formula injection (CWE-1236): Excel and LibreOffice run a cell that starts with one of
 * these as a formula, so exported text that a customer typed could call out or exfiltrate data.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell of an export, safe to open in a spreadsheet: text that could start a formula gets a
 * leading apostrophe (shown by spreadsheets as plain text). Numbers and booleans are never formulas,
 * so `-5` stays a number; null and undefined become empty cells.
 */
export function csvSafe(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A whole row at once, for exporters that build arrays of cells. */
export function csvSafeRow(values: readonly unknown[]): string[] {
  return values.map(csvSafe);
}
