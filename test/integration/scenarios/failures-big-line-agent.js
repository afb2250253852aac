// Issue 8 (failures.test.ts): runs the fake agent (argv[2]) on a scenario (argv[3]) and, just before the first
// session/update it writes, writes one line of 64 MiB + 100 bytes (over Howdah's line cap) of its own. Everything else
// passes through unchanged, whole lines at a time.
'use strict';
const { spawn } = require('node:child_process');

const [fakeAgent, scenario] = process.argv.slice(2);
const child = spawn(process.execPath, [fakeAgent, scenario], { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
process.stdin.on('end', () => child.stdin.end());

const big = '{"jsonrpc":"2.0","method":"session/update","params":{"pad":"' + 'x'.repeat(64 * 1024 * 1024 + 100) + '"}}\n';
let injected = false;
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (data) => {
  const text = rest + data;
  const end = text.lastIndexOf('\n') + 1;
  rest = text.slice(end);
  for (const line of text.slice(0, end).split('\n').slice(0, -1)) {
    if (!injected && line.includes('"session/update"')) {
      injected = true;
      process.stderr.write(`fake-agent: writing a line of ${big.length} bytes\n`);
      process.stdout.write(big);
    }
    process.stdout.write(line + '\n');
  }
});
child.on('exit', (code) => process.stdout.write('', () => process.exit(code ?? 1)));
