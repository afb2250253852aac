// `npm test`: the unit, browser, integration, real-agents and end-to-end tiers, in that order, each in its own process.
// Every tier writes its counts to a results file; this prints one line per tier and, last, exactly
// `N passed, N failed` over all tiers. Any failing tier makes the exit code non-zero.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, RESULTS } from './harness/config.mjs';
import { processesMentioning } from './harness/processes.mjs';
import { readResults } from './harness/results.mjs';

const REPORTER = path.join(REPO, 'test', 'harness', 'mocha-reporter.cjs');
const TIERS = [
  { name: 'unit', args: ['run', '--silent', 'test:unit', '--', '--reporter', REPORTER] },
  { name: 'browser', args: ['run', '--silent', 'test:browser'] },
  { name: 'integration', args: ['run', '--silent', 'test:integration'] },
  { name: 'agents', args: ['run', '--silent', 'test:agents'] },
  { name: 'e2e', args: ['run', '--silent', 'test:e2e'] },
];
const only = process.argv.slice(2);
const runId = `howdah-run-${crypto.randomUUID()}`;  // inherited by every process a tier starts
let interrupted = false;
let current;

for (const signal of ['SIGINT', 'SIGTERM']) {
  // pass it on to the tier in progress, which cleans up its servers; wait for it, run no more tiers
  process.on(signal, () => { interrupted = true; current?.kill(signal); });
}

function runTier(tier, resultsFile) {
  return new Promise(resolve => {
    current = spawn('npm', tier.args, {
      cwd: REPO, stdio: 'inherit', env: { ...process.env, HOWDAH_RESULTS_FILE: resultsFile, HOWDAH_RUN_ID: runId },
    });
    current.on('exit', (code, signal) => resolve(code ?? signal));
    current.on('error', e => { console.error(e.message); resolve('spawn error'); });
  });
}

fs.mkdirSync(RESULTS, { recursive: true });
const summary = [];
for (const tier of TIERS.filter(t => only.length === 0 || only.includes(t.name))) {
  if (interrupted) break;
  console.log(`\n━━━ ${tier.name} tier ━━━`);
  const resultsFile = path.join(RESULTS, `${tier.name}-results.json`);
  fs.rmSync(resultsFile, { force: true });
  const t0 = Date.now();
  const code = await runTier(tier, resultsFile);
  const results = readResults(resultsFile, `${tier.name} tier`);
  if (code !== 0 && results.failed === 0) results.failed = 1;  // crashed or failed outside its tests
  summary.push({ tier: tier.name, code, seconds: (Date.now() - t0) / 1000, ...results });
}

const left = processesMentioning(runId);
for (const p of left) {
  console.log(`LEFT BEHIND after the run: pid ${p.pid}: ${p.cmd}`);
  try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
}

console.log('\n━━━ summary ━━━');
for (const s of summary) {
  console.log(`${s.tier.padEnd(12)} ${String(s.passed).padStart(4)} passed ${String(s.failed).padStart(4)} failed` +
    `${s.pending ? ` ${s.pending} pending` : ''}   ⏱ ${s.seconds.toFixed(1)} s${s.code === 0 ? '' : `   (exit ${s.code})`}`);
  for (const f of s.failures ?? []) {
    console.log(`    ✖ ${f.title}`);
    // The why, here too: CI keeps only the log's tail, and a tier's own report of the failure is far above it.
    for (const line of String(f.error ?? '').split('\n').slice(0, 8)) console.log(`        ${line.slice(0, 300)}`);
  }
}
if (interrupted) console.log('interrupted: remaining tiers not run');
if (left.length) console.log(`${left.length} process(es) left behind by the run (killed now)`);
const passed = summary.reduce((n, s) => n + s.passed, 0);
const failed = summary.reduce((n, s) => n + s.failed, 0) + (left.length ? 1 : 0) + (interrupted ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && summary.every(s => s.code === 0) ? 0 : 1);
