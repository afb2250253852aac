// Runs a mocha suite inside the real (server-side) extension host of a code-server started with the
// smoke-test driver: the workbench URL carries extensionDevelopmentPath/extensionTestsPath, the suite's
// output arrives through codeAutomationLog and its end through codeAutomationExit.
import util from 'node:util';
import { phase, seconds } from './timing.mjs';

// workbench chatter that is not the suite's output (VERBOSE=1 shows everything)
const NOISE = /ENOTFOUND|Creating a socket|connection token|grace time|builtin extensions cache|Service Worker|AgentHost|AccountPolicyGate|^\s+at |\[Extension Host\]|Extension host .* started|Started local extension host|ExtensionService|^\s*$/;

/**
 * Opens the workbench on `folder` (or the .code-workspace `workspaceFile`) with the extension at `devPath` and the suite at `testsPath`
 * (server-side absolute paths), prints the suite's output, resolves to its exit code (or 'timeout').
 */
export async function runExtensionTests({ page, server, folder, workspaceFile, devPath, testsPath, env = {}, timeoutMs = Number(process.env.HOWDAH_SUITE_TIMEOUT_MS) || 10 * 60000 }) {
  const payload = [
    ['extensionDevelopmentPath', server.remote(devPath)],
    ['extensionTestsPath', server.remote(testsPath)],
    ['extensionEnvironment', JSON.stringify(env)],
  ];
  const where = workspaceFile ? `workspace=${encodeURIComponent(workspaceFile)}` : `folder=${encodeURIComponent(folder)}`;
  const url = `${server.base}/?${where}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  let exited;
  const exit = new Promise(resolve => { exited = resolve; });
  await page.exposeFunction('codeAutomationLog', (_type, args) => {
    const text = util.format(...(Array.isArray(args) ? args : [args]));
    if (process.env.VERBOSE || !NOISE.test(text)) console.log(text);
  });
  await page.exposeFunction('codeAutomationExit', code => exited(code));
  const t0 = Date.now();
  await phase('page load (workbench shown)', async () => {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
  });
  let timer;
  const code = await Promise.race([exit, new Promise(r => { timer = setTimeout(() => r('timeout'), timeoutMs); })]);
  clearTimeout(timer);
  console.log(`extension host suite ended with ${code} after ${seconds(Date.now() - t0)} (from page load)`);
  return code;
}
