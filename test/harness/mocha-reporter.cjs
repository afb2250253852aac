// Mocha reporter for every tier: mocha's human-readable "spec" output, plus the counts in a form the
// harness can parse — a JSON file (reporter option `output`, else $HOWDAH_RESULTS_FILE) and one
// `HOWDAH_RESULTS {...}` line.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

const { Base, Spec } = Mocha.reporters;

class HowdahReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on('fail', (test, err) => failures.push({ title: test.fullTitle(), error: String((err && err.message) || err) }));
    // A test that passes only on its retry passed, but says so: flakiness stays visible.
    runner.on('retry', (test, err) => {
      // The message's first line and where it was thrown in the test (the retry's reason would be lost otherwise).
      const where = String((err && err.stack) || '').split('\n').find((l) => /\.test\.(mjs|ts|js)|harness\//.test(l));
      Base.consoleLog(`    ↻ retrying "${test.fullTitle()}": ${String((err && err.message) || err).split('\n')[0]}${where ? ` (${where.trim()})` : ''}`);
    });
    runner.once('end', () => {
      const { passes = 0, failures: failed = 0, pending = 0 } = this.stats;
      const result = { passed: passes, failed, pending, failures };
      const file = (options && options.reporterOption && options.reporterOption.output) || process.env.HOWDAH_RESULTS_FILE;
      if (file) fs.writeFileSync(file, JSON.stringify(result, null, 2));
      Base.consoleLog(`HOWDAH_RESULTS ${JSON.stringify({ passed: passes, failed, pending })}`);
    });
  }
}

module.exports = HowdahReporter;
