// csv.js — the plotted columns as a CSV file (RFC 4180): a header row of the column titles, then one row per
// sample, numbers at full precision, an empty cell where a value is not finite.
const cell = (v) => {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** `header` (titles) over `columns` (equal-length arrays), as CSV text. */
export function toCsv(header, columns) {
  const rows = [header.map(cell).join(',')];
  const n = columns[0]?.length ?? 0;
  for (let r = 0; r < n; r++) rows.push(columns.map((c) => cell(c[r])).join(','));
  return `${rows.join('\r\n')}\r\n`;
}
