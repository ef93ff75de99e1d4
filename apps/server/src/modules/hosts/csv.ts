/**
 * Splits CSV text into rows of fields (RFC 4180: commas, double-quoted fields with "" escapes, CRLF or LF).
 * Returns each row with its 1-based line number; blank lines are skipped.
 */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0]!.trim() !== '') rows.push({ line: rowLine, fields });
    fields = [];
    field = '';
  };
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else { if (c === '\n') line++; field += c; }
    } else if (c === '"' && field.trim() === '') { field = ''; quoted = true; }
    else if (c === ',') { fields.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (field !== '' || fields.length) endRow();
  return rows;
}
