// What the e2e tests share, filled in by run.mjs before mocha starts: the server (with the .vsix
// installed), the browser page, the scratch workspace, where screenshots go, and the JSONL file every fake agent
// appends its messages to (FAKE_AGENT_LOG).
import path from 'node:path';
import { screenshotter } from '../harness/browser.mjs';
import { openWorkbench } from '../harness/workbench.mjs';
import { phase } from '../harness/timing.mjs';

export const e2e = { server: null, page: null, workspace: null, resultsDir: null, agentLog: null };

/** (Re)loads the workbench on the scratch workspace: a fresh window and extension host per test. */
export async function loadWorkbench() {
  await phase('page load (workbench shown)', () => openWorkbench(e2e.page, e2e.server.url()));
}

/** A screenshotter writing into test-results/e2e/<slug>/. */
export function screenshots(slug) {
  return screenshotter(e2e.page, path.join(e2e.resultsDir, slug));
}

/**
 * For a describe block: its screenshots go to test-results/e2e/<slug>/ and a failed test leaves a "failure" one.
 * Returns the function that takes a named screenshot (usable once the suite's hooks run).
 */
export function suiteScreenshots(slug) {
  let shot;
  before(() => { shot = screenshots(slug); });
  afterEach(async function () { if (this.currentTest?.state === 'failed') await shot('failure').catch(() => {}); });
  return (label) => shot(label);
}
