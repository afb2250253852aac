// A tier's counts: read what the reporter wrote, add the harness's own failures, hand them to run-all.
import fs from 'node:fs';

/** Reads a reporter result file; a missing or unreadable file is one failure (the suite never finished). */
export function readResults(file, what) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, pending: 0, failures: [{ title: what, error: 'no results: the suite did not finish' }] };
  }
}

/** Adds a harness-level failure (leftover processes, a server that would not start) to `results`. */
export function addFailure(results, title, error) {
  results.failed += 1;
  (results.failures ??= []).push({ title, error: String(error) });
  return results;
}

/** Prints the tier's line and writes the counts where run-all (HOWDAH_RESULTS_FILE) expects them. */
export function finishTier(tier, results, file = process.env.HOWDAH_RESULTS_FILE) {
  if (file) fs.writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`${tier}: ${results.passed} passed, ${results.failed} failed${results.pending ? `, ${results.pending} pending` : ''}`);
  return results.failed === 0 ? 0 : 1;
}
