export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
}

/**
 * A plain-text table: a header row, a rule, then the rows, columns padded to their widest cell.
 * Numbers read best right-aligned, text left-aligned.
 */
export function renderTable(
  columns: readonly Column[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const cells = rows.map((row) => columns.map((_, i) => String(row[i] ?? '')));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (values: readonly string[]): string =>
    values
      .map((value, i) =>
        columns[i]?.align === 'right' ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((column) => column.header)),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
  ]
    .join('\n')
    .concat('\n');
}
