// The frame every server-backed tier runs in: a private run folder, phases with timings, cleanup of
// every server and browser on success, failure or interrupt, and a leak check that fails the tier.
import fs from 'node:fs';
import path from 'node:path';
import { RESULTS } from './config.mjs';
import { stopEverything } from './processes.mjs';
import { addFailure, finishTier } from './results.mjs';
import { createRunDir, removeRunDir } from './server.mjs';
import { log, phase } from './timing.mjs';

/**
 * Runs `body(ctx)` — ctx: { runDir, logDir, onCleanup(fn) } — which resolves to the suite's results
 * ({ passed, failed, pending, failures }). Exits the process with the tier's status.
 */
export async function runTier(tier, body) {
  const resultsFile = process.env.HOWDAH_RESULTS_FILE;
  const logDir = path.join(RESULTS, tier);
  fs.mkdirSync(logDir, { recursive: true });
  const runDir = createRunDir(tier);
  const cleanups = [];
  let results = { passed: 0, failed: 0, pending: 0, failures: [] };
  const t0 = Date.now();
  try {
    results = (await body({ runDir, logDir, onCleanup: fn => cleanups.push(fn) })) ?? results;
  } catch (e) {
    console.error(e?.stack ?? e);
    addFailure(results, `${tier} harness`, e?.message ?? e);
  } finally {
    for (const fn of cleanups.reverse()) await Promise.resolve().then(fn).catch(e => log('cleanup error:', e.message));
    const left = await phase('cleanup (stop servers, leak check)', () => stopEverything());
    if (left.length) addFailure(results, 'no process left behind', left.map(p => `${p.pid} ${p.cmd}`).join('\n'));
    removeRunDir(runDir);
  }
  console.log(`⏱ ${tier} tier total: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(finishTier(tier, results, resultsFile));
}
