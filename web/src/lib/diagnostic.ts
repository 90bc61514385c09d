// Where the core's (line, column) of a scenario problem falls in the editor's
// document: the core counts characters (code points), the editor UTF-16 units.

/** Offsets [from, to) of a problem at 1-based `line`, `column` (characters) in `text`:
 *  from the column to the end of the line, or the whole line when the column is past it;
 *  a line past the end is the last line. */
export function problemRange(text: string, line: number, column: number): { from: number; to: number; line: number } {
  const lines = text.split('\n');
  const n = Math.min(Math.max(1, line), lines.length);
  let start = 0;
  for (let i = 0; i < n - 1; i++) start += lines[i]!.length + 1;
  const body = lines[n - 1]!;
  let units = 0;
  let chars = 1;
  for (const ch of body) {
    if (chars >= column) break;
    units += ch.length;
    chars++;
  }
  const end = start + body.length;
  const from = chars >= column && units < body.length ? start + units : start;
  return { from, to: Math.max(end, from), line: n };
}
