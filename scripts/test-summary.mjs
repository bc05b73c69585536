// Prints the closing `N passed, N failed` line from vitest's JSON reports. A missing report counts
// as a failure: a tier that never ran must not look green.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing test report: ${file}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A file that failed before any of its tests ran (import error, failing hook) counts as one failure.
  for (const file of report.testResults ?? []) {
    const failedInside = (file.assertionResults ?? []).some((a) => a.status === 'failed');
    if (file.status === 'failed' && !failedInside) failed += 1;
  }
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
