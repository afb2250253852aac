// Issue 14: an agent asks through a form (elicitation/create) and the user answers it in the real panel. The agent
// (scenario test/integration/scenarios/elicitation-form.json) asks for a version (text with a pattern), replicas
// (integer), a region (titled select) and a checkbox, and echoes the result it received; the fake agents' log shows
// the answer as it went over the wire.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { openHowdahView } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

/**
 * The answers the fake agents received to their elicitation/create requests, in order. Every fake agent appends to
 * the same log and numbers its own requests from 1, so an answer is told by its shape (an `action`), not its id.
 */
function elicitationAnswers() {
  if (!fs.existsSync(e2e.agentLog)) return [];
  const lines = fs.readFileSync(e2e.agentLog, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return {}; } });
  return lines.filter((l) => l.dir === 'in' && l.msg && typeof l.msg.result?.action === 'string').map((l) => l.msg.result);
}

describe('an agent asks through a form (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('elicitation');
  useDefaultAgentForSuite('test-elicitation-form');

  it('the form is filled in the panel and the agent receives exactly the typed values', async () => {
    const before = elicitationAnswers().length;
    await loadWorkbench();
    const wv = await openHowdahView(e2e.page);
    await newSession(wv);
    await sendPrompt(wv, 'deploy');
    const form = wv.getByRole('group', { name: 'The agent asks you' });
    await form.waitFor({ timeout: 60000 });
    await shot('form');
    await form.getByLabel('Version').fill('v3.1.4');
    await form.getByLabel('Replicas').fill('5');
    await form.getByLabel('Region').selectOption({ label: 'United States' });
    await form.getByLabel('Canary first').check();
    await form.getByRole('button', { name: 'Submit' }).click();
    await wv.getByText('You submitted:', { exact: false }).first().waitFor({ timeout: 30000 });
    await shot('answered');
    await until('the agent to receive the answer', () => elicitationAnswers().length > before);
    assert.deepEqual(elicitationAnswers()[before], { action: 'accept', content: { version: 'v3.1.4', replicas: 5, region: 'us', canary: true } });
    await wv.getByText('ANSWER {"action":"accept"', { exact: false }).first().waitFor({ timeout: 30000 });
  });
});
