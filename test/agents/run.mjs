// `npm run test:agents`: real ACP agents, offline. Installs each pinned agent into .vscode-test/agents/ on
// first use (install.mjs), builds the extension and test/agents/*.test.ts (with the integration tier's
// mocha entry point), starts code-server in smoke-test-driver mode on a scratch copy of fixtures/workspace,
// and runs the suite inside its extension host. Each test starts its own scripted model server
// (modelServer.mjs) and registers the agent through Howdah's `howdah.agents` setting, pointed at it.
// Part of `npm test`. HOWDAH_SKIP_BUILD=1, HOWDAH_GREP=<text>, VERBOSE=1 as in the integration tier.
import esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../harness/config.mjs';
import { runHostSuite } from '../harness/host-suite.mjs';
import { npmRun } from '../harness/npm.mjs';
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

await runTier('agents', async (ctx) => {
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
  const index = await phase('compile agent tests', () => compileAgentTests(path.join(ctx.runDir, 'tests')));
  return runHostSuite('agents', ctx, index, {
    HOWDAH_AGENT_LOG_DIR: path.join(ctx.logDir, 'agent-logs'), VERBOSE: process.env.VERBOSE ?? '', ...agentEnv,
  });
});
