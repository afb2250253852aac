// `npm run test:electron`: the same integration suite in desktop VS Code (Electron), through
// @vscode/test-electron. It downloads VS Code into .vscode-test/ on first use, so it needs internet
// (update.code.visualstudio.com) and, on Linux without a display, xvfb-run. Not part of `npm test`.
// VSCODE_VERSION=1.139.1 pins the version (default: stable).
import { download, runTests } from '@vscode/test-electron';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, REPO, TESTABLE_SETTINGS, fakeAgentSettings } from '../harness/config.mjs';
import { npmRun } from '../harness/npm.mjs';
import { readResults } from '../harness/results.mjs';
import { runTier } from '../harness/tier.mjs';
import { phase } from '../harness/timing.mjs';
import { compileIntegrationTests } from '../integration/build.mjs';

const version = process.env.VSCODE_VERSION || 'stable';

/** Rejects when `promise` has not settled after `ms` (the download's own timeout only covers idle sockets). */
function deadline(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms); })])
    .finally(() => clearTimeout(timer));
}

await runTier('electron', async ({ runDir }) => {
  if (!process.env.HOWDAH_SKIP_BUILD) await phase('build extension', () => npmRun('build'));
  const index = await phase('compile integration tests', compileIntegrationTests);
  let vscodeExecutablePath;
  try {
    vscodeExecutablePath = await phase(`download VS Code ${version}`,
      () => deadline(download({ version, cachePath: CACHE, timeout: 30000 }), 15 * 60000, 'the download'));
  } catch (e) {
    throw new Error(`could not download VS Code ${version}: ${e.message}\n` +
      'test:electron needs internet access to update.code.visualstudio.com the first time. ' +
      'Offline, run the same suite with `npm run test:integration` (VS Code from code-server).');
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn('No display: run this under xvfb-run (xvfb-run -a npm run test:electron).');
  }

  const userData = path.join(runDir, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  // the fake agent runs on this Node (process.execPath here is node, unlike in the Electron extension host)
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...TESTABLE_SETTINGS, ...fakeAgentSettings() }, null, 2));
  const workspace = path.join(runDir, 'workspace');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  const output = path.join(runDir, 'mocha-results.json');
  await phase('integration suite (Electron)', () => runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: REPO,
    extensionTestsPath: index,
    launchArgs: [workspace, '--user-data-dir', userData, '--extensions-dir', path.join(runDir, 'extensions'),
      '--disable-workspace-trust', '--disable-gpu', '--skip-welcome', '--skip-release-notes'],
    extensionTestsEnv: { HOWDAH_RESULTS_FILE: output, HOWDAH_TEST_USER_DATA: userData, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '' },
  }).catch(e => console.error(e.message ?? e)));
  return readResults(output, 'integration suite (Electron)');
});
