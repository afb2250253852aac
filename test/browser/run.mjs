// Runs the webview's browser tests (test/browser/*.test.mjs) as a mocha suite in headless Chromium with a fake host.
// Mocha's spec output with "N passing / N failing", and the counts in $HOWDAH_RESULTS_FILE through the harness
// reporter (so test/run-all.mjs can run it as a tier). Exit code 1 on any failure.
// Usage: node test/browser/run.mjs [--grep pattern]
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeChatHost } from './support/chatPage.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const Mocha = createRequire(import.meta.url)('mocha');
const grep = process.argv.includes('--grep') ? process.argv[process.argv.indexOf('--grep') + 1] : undefined;

const reporter = createRequire(import.meta.url)('../harness/mocha-reporter.cjs');
const mocha = new Mocha({ timeout: 60_000, reporter, grep });
for (const file of readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()) mocha.addFile(join(here, file));
await mocha.loadFilesAsync();
const failures = await new Promise((resolve) => mocha.run(resolve));
await closeChatHost();
process.exitCode = failures > 0 ? 1 : 0;
