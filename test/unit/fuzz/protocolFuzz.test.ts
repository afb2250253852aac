import { strict as assert } from 'node:assert';
import { runProtocolFuzz } from '../support/protocolFuzzer';

/**
 * Issue 8: a hostile agent. 100,000 generated and mutated lines (seeded: a failure reproduces with the seed in its
 * name) through AcpConnection, the protocol log's recorder and trace, and the Session: nothing throws out of the layer,
 * no rejection is left unhandled, every request gets exactly the answer JSON-RPC requires (same id, or id null for
 * unparsable and invalid messages) and notifications and responses none, every turn ends idle with a closing entry,
 * and the session state stays consistent and saves. `npm run bench fuzz` runs more seeds and prints messages per second.
 */
describe('protocol fuzz (issue 8)', function () {
  // About 12 s of CPU; the margin is for loaded CI machines.
  this.timeout(120_000);

  it('survives 100,000 hostile lines (seed 8)', async () => {
    const report = await runProtocolFuzz({ seed: 8, messages: 100_000, trace: 'messages' });
    assert.deepEqual(report.findings, [], report.findings.join('\n'));
    assert.equal(report.messages, 100_000);
    assert.ok(report.counts['expect-id'] > 10_000 && report.counts['expect-null'] > 10_000 && report.counts['expect-none'] > 10_000);
    assert.ok(report.turnsRun > 50 && report.entries > 1000 && report.toolCalls > 0);
  });

  it('survives 5,000 hostile lines with the verbose protocol log (seed 20260)', async () => {
    const report = await runProtocolFuzz({ seed: 20260, messages: 5_000, trace: 'verbose' });
    assert.deepEqual(report.findings, [], report.findings.join('\n'));
    assert.ok(report.traced > 0);
  });
});
