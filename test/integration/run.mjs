// `npm run test:integration`: the integration tier. Builds the extension and this suite, starts a
// code-server in smoke-test-driver mode on a scratch copy of fixtures/workspace, and runs the suite
// inside its extension host with the repo loaded as the extension under development.
// HOWDAH_SKIP_BUILD=1 reuses out/; HOWDAH_GREP=<text> runs only matching tests; VERBOSE=1 shows workbench logs.
import { runHostSuite } from '../harness/host-suite.mjs';
import { npmRun } from '../harness/npm.mjs';
import { runTier } from '../harness/tier.mjs';
import { phase } from '../harness/timing.mjs';
import { compileIntegrationTests } from './build.mjs';

await runTier('integration', async (ctx) => {
  if (!process.env.HOWDAH_SKIP_BUILD) await phase('build extension', () => npmRun('build'));
  const index = await phase('compile integration tests', compileIntegrationTests);
  // About a hundred tests, six minutes on a quiet machine and more in CI: the safety net is wider than the default ten.
  const results = await runHostSuite('integration', ctx, index, {}, { timeoutMs: 25 * 60_000 });
  // The tests named "multi-root" again, in a window of two folders (they are pending in the one-folder window).
  const grep = process.env.HOWDAH_GREP;
  if (grep && !/multi-root/i.test(grep)) return results;
  const multi = await runHostSuite('integration-multiroot', ctx, index, { HOWDAH_MULTIROOT: '1', HOWDAH_GREP: 'multi-root' }, { timeoutMs: 5 * 60_000, multiRoot: true });
  return { passed: results.passed + multi.passed, failed: results.failed + multi.failed, pending: (results.pending ?? 0) + (multi.pending ?? 0), failures: [...(results.failures ?? []), ...(multi.failures ?? [])] };
});
