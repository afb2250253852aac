/**
 * Issue 8's protocol fuzzer as a bench: `npm run bench fuzz` feeds FUZZ_MESSAGES (default 300,000) hostile lines per
 * seed through AcpConnection and the Session and prints messages per second and every finding (a finding is a bug:
 * an answer JSON-RPC does not allow or a missing one, an exception, an unhandled rejection, inconsistent state).
 * FUZZ_SEEDS="1,2,3" picks the seeds, FUZZ_TRACE=verbose formats every message as the protocol log's verbose level does.
 */
import { runProtocolFuzz } from '../unit/support/protocolFuzzer';

const MESSAGES = Number(process.env.FUZZ_MESSAGES ?? 300_000);
const SEEDS = (process.env.FUZZ_SEEDS ?? '1,8,20260').split(',').map(Number);

async function main(): Promise<void> {
  let total = 0;
  let ms = 0;
  let findings = 0;
  for (const seed of SEEDS) {
    const report = await runProtocolFuzz({ seed, messages: MESSAGES, trace: (process.env.FUZZ_TRACE as 'off' | 'messages' | 'verbose' | undefined) ?? 'messages' });
    total += report.messages;
    ms += report.ms;
    findings += report.findings.length;
    const rate = Math.round(report.messages / (report.ms / 1000));
    console.log(
      `seed ${seed}: ${report.messages} lines, ${(report.bytes / 1e6).toFixed(1)} MB in ${report.ms} ms = ${rate} msgs/s; ` +
        `${report.warnings} protocol warnings, ${report.entries} entries, ${report.toolCalls} tool calls, ${report.turnsRun} turns; ` +
        `${report.findings.length} findings`,
    );
    console.log(`  mix: ${Object.entries(report.counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const f of report.findings) console.log(`  FINDING: ${f.split('\n').slice(0, 4).join(' | ')}`);
  }
  console.log(`total: ${total} lines in ${ms} ms = ${Math.round(total / (ms / 1000))} msgs/s; ${findings} findings`);
}

main().catch((error: Error) => {
  console.error(error.stack);
  process.exit(1);
});
