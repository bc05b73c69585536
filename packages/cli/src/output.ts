import Table from 'cli-table3';

export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
}

/** A list as a table, or as JSON with `--json`. */
export function printList<Row>(rows: Row[], columns: Column<Row>[], json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const table = new Table({ head: columns.map((c) => c.header), style: { head: [], border: [] } });
  for (const row of rows) table.push(columns.map((c) => cell(c.value(row))));
  process.stdout.write(`${table.toString()}\n`);
}

/** One resource: JSON (it has nested fields a table cannot show). */
export function printObject(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  // Objects and arrays (a JSON reply holds nothing else).
  return JSON.stringify(value) ?? '';
}
