// Prints the failed tests and the closing `N passed, N failed` line from vitest's JSON reports, so
// the tail of a long run says what broke. A missing report counts as a failure: a tier that never
// ran must not look green.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const durations = [];
for (const reportFile of process.argv.slice(2)) {
  if (!existsSync(reportFile)) {
    console.error(`missing test report: ${reportFile}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name ?? '');
    if (file.startTime && file.endTime)
      durations.push({ name, seconds: Math.round((file.endTime - file.startTime) / 1000) });
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of failedTests) {
      failures.push(`${name} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`);
    }
    // A file that failed before any of its tests ran (import error, failing hook) counts as one failure.
    if (file.status === 'failed' && failedTests.length === 0) {
      failed += 1;
      failures.push(`${name}: ${firstLine(file.message)}`);
    }
  }
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const slowest = durations.sort((a, b) => b.seconds - a.seconds).slice(0, 12);
if (slowest.length > 0) console.log('slowest test files:');
for (const { name, seconds } of slowest) console.log(`${String(seconds).padStart(6)}s  ${name}`);
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 300);
}
