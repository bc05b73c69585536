import { stringify } from 'csv-stringify/sync';
import type { UsageReport } from '@agentry/contracts/v1';

/** Group columns in report order; only those the query grouped by appear. */
const GROUP_COLUMNS = ['agent_id', 'environment_id', 'session_id', 'model', 'day'] as const;
const SUM_COLUMNS = [
  'model_requests',
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
  'list_cost_amount',
  'list_cost_currency',
] as const;

/**
 * The usage report as CSV: a header, then one line per row with the same numbers as the JSON answer
 * (the list cost split into amount and currency, so a spreadsheet can sum it).
 */
export function usageReportCsv(report: UsageReport, groupBy: readonly string[]): string {
  const groups = GROUP_COLUMNS.filter((column) => groupBy.includes(column.replace(/_id$/, '')));
  const columns = [...groups, ...SUM_COLUMNS];
  const records = report.data.map((row) => {
    const flat: Record<string, unknown> = {
      ...row,
      list_cost_amount: row.list_cost.amount,
      list_cost_currency: row.list_cost.currency,
    };
    return columns.map((column) => flat[column] ?? '');
  });
  return stringify(records, { header: true, columns: [...columns] });
}
