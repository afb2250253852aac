// `npm run test:agents`: real ACP agents, offline. Installs each pinned agent into .vscode-test/agents/ on
// first use (install.mjs), builds the extension and test/agents/*.test.ts (with the integration tier's
// mocha entry point), starts code-server in smoke-test-driver mode on a scratch copy of fixtures/workspace,
// and runs the suite inside its extension host. Each test starts its own scripted model server
// (modelServer.mjs) and registers the agent through Howdah's `howdah.agents` setting, pointed at it.
// Not part of `npm test` (yet). HOWDAH_SKIP_BUILD=1, HOWDAH_GREP=<text>, VERBOSE=1 as in the integration tier.
import esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fakeAgentSettings } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { runExtensionTests } from '../harness/extension-tests.mjs';
import { npmRun } from '../harness/npm.mjs';
import { provision } from '../harness/provision.mjs';
import { addFailure, readResults } from '../harness/results.mjs';
import { startCodeServer } from '../harness/server.mjs';
import { runTier } from '../harness/tier.mjs';
import { log, phase } from '../harness/timing.mjs';
import { AGENTS, installAgent } from './install.mjs';

const SRC = path.join(REPO, 'test', 'agents');

/** One CommonJS bundle per *.test.ts, plus the integration tier's index.ts (it runs every *.test.js beside it). */
async function compileAgentTests(out) {
  // into the run's own folder, so two runs at once (or a run and an edit) never share compiled tests
  const tests = fs.readdirSync(SRC).filter(f => f.endsWith('.test.ts')).map(f => path.join(SRC, f));
  await esbuild.build({
    entryPoints: [{ in: path.join(REPO, 'test', 'integration', 'index.ts'), out: 'index' }, ...tests],
    outdir: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode', 'mocha'], sourcemap: 'inline', logLevel: 'warning',
  });
  return path.join(out, 'index.js');
}

await runTier('agents', async ({ runDir, logDir, onCleanup }) => {
  // Each agent is installed on its own; one that fails to install fails only its own tests, by name.
  const agentEnv = {};
  for (const name of Object.keys(AGENTS)) {
    const upper = name.toUpperCase();
    try {
      const a = await phase(`install ${name}`, () => installAgent(name));
      log(`${name}: ${a.pkg}@${a.version} ${a.cached ? '(cached)' : `(installed in ${a.seconds.toFixed(1)} s)`}`);
      agentEnv[`HOWDAH_AGENT_${upper}_BIN`] = fs.realpathSync(a.command);
      agentEnv[`HOWDAH_AGENT_${upper}_VERSION`] = a.version;
    } catch (e) {
      log(`${name}: install failed: ${e?.message ?? e}`);
      agentEnv[`HOWDAH_AGENT_${upper}_ERROR`] = String(e?.message ?? e);
    }
  }
  if (!process.env.HOWDAH_SKIP_BUILD) await phase('build extension', () => npmRun('build'));
  const index = await phase('compile agent tests', () => compileAgentTests(path.join(runDir, 'tests')));
  await phase('provision', provision);
  const workspace = path.join(runDir, 'workspace');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  const server = await phase('server start', () => startCodeServer({
    runDir, name: 'agents', folder: workspace, settings: fakeAgentSettings(), smokeTestDriver: true, logDir,
  }));
  onCleanup(server.stop);
  const browser = await phase('browser launch', () => launchBrowser(runDir));
  onCleanup(browser.close);
  const mochaResults = path.join(runDir, 'mocha-results.json');
  const code = await phase('agents suite', () => runExtensionTests({
    page: browser.page, server, folder: workspace, devPath: REPO, testsPath: index,
    env: {
      HOWDAH_RESULTS_FILE: mochaResults, HOWDAH_TEST_USER_DATA: server.dataDir, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '',
      HOWDAH_AGENT_LOG_DIR: path.join(logDir, 'agent-logs'), VERBOSE: process.env.VERBOSE ?? '', ...agentEnv,
    },
  }));
  const results = readResults(mochaResults, 'agents suite');
  if (code !== 0 && results.failed === 0) addFailure(results, 'agents suite', `ended with ${code}; server log: ${server.logFile}`);
  return results;
});
