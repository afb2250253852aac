import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { agentText, howdah, waitFor } from '../integration/helpers';
import { agentSuiteHooks, answerAll, installedAgent, pendingChange, promptAnswering, registerAgent, rejectToOriginal, reviewState as state, shellEditIsReviewed, queuedMessageReachesModel, ownContextFitsBesideTheCarriedConversation, editAndResendCarriesOnlyTheKeptTurns, editorContextReadReachesModel, startAndPrompt, toolCalls, ws } from './common';
import { type ModelServer, startModelServer } from './modelServer.mjs';

// Claude Code (claude-agent-acp, installed by test/agents/install.mjs; run.mjs passes its script in
// HOWDAH_AGENT_CLAUDE_BIN) launched through Howdah's own agent configuration, its model provider pointed at a
// scripted Anthropic Messages server in this extension host.

let model: ModelServer;

/** Registers Claude Code as a Howdah agent whose model is `model`; returns its id. */
async function claudeAgent(): Promise<string> {
  const { bin } = installedAgent('claude');
  const env: Record<string, string> = {
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
  };
  // Claude Code refuses its permission-skipping flag as root unless IS_SANDBOX is exactly 1 (agents-in-the-wild).
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
  return registerAgent('claude', { command: process.execPath, args: [bin], env });
}

describe('Claude Code (claude-agent-acp), offline against a scripted Anthropic model', function () {
  this.timeout(120000);

  before(async () => {
    model = await startModelServer({ log: (line) => { if (process.env.VERBOSE) console.log(line); } });
  });
  after(async () => model?.close());
  agentSuiteHooks('claude', () => model);

  it("the model's streamed answer reaches the session snapshot", async () => {
    const answer = 'Hello from the scripted model. Ünïcödé and 🐘 survive chunking; **Markdown** too.';
    model.script([{ text: answer }]);
    const api = await howdah();
    const { key, stop } = await startAndPrompt(await claudeAgent(), 'Say hello');
    assert.equal(stop, 'end_turn');
    assert.equal(agentText(api.snapshot(key)).trim(), answer);
    assert.ok(model.mainRequests().some((r) => r.prompt.includes('Say hello')), 'the prompt reached the model');
  });

  it('read → edit → shell → answer: the edit is a pending change, and rejecting it restores the exact original', async () => {
    const file = ws('src/a.ts');
    const original = fs.readFileSync(file);
    const before = original.toString('utf8');
    const firstLine = before.split('\n')[0];
    const edited = `${firstLine} // changed by Claude Code`;
    const answer = 'I read src/a.ts, marked its first line, and ran the check: all done.';
    model.script([
      { text: 'Let me look at the file.', tool: { name: 'Read', input: { file_path: file } } },
      { tool: { name: 'Edit', input: { file_path: file, old_string: firstLine, new_string: edited } } },
      { tool: { name: 'Bash', input: { command: 'echo howdah-agents-$((20+22))', description: 'Print a marker' } } },
      { text: answer },
    ]);
    const api = await howdah();
    const key = await api.newSession(await claudeAgent());
    const { stop } = await promptAnswering(key, 'Mark the first line of src/a.ts, then run the check');
    assert.equal(stop, 'end_turn');
    assert.ok(agentText(api.snapshot(key)).includes(answer), `the answer is in the snapshot: ${JSON.stringify(agentText(api.snapshot(key)).slice(-120))}`);

    // what the agent sent back to the model: the file's text, then the command's output
    const results = model.mainRequests().flatMap((r) => r.toolResults);
    assert.ok(results.some((r) => r.text.includes(firstLine)), `the Read result holds the file: ${JSON.stringify(results.map((r) => r.text.slice(0, 80)))}`);
    assert.ok(results.some((r) => r.text.includes('howdah-agents-42')), `the Bash result holds its output: ${JSON.stringify(results.map((r) => r.text.slice(0, 80)))}`);
    const kinds = toolCalls(api.snapshot(key)).map((c) => `${c.kind}:${c.status}`);
    assert.ok(kinds.includes('read:completed') && kinds.includes('edit:completed') && kinds.includes('execute:completed'), `tool calls: ${kinds.join(', ')}`);

    assert.equal(fs.readFileSync(file, 'utf8'), before.replace(firstLine, edited), 'the agent edited the file on disk');
    const change = await pendingChange(file);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await rejectToOriginal(file, original);
  });

  it('a rejected edit: the model is told, the file stays byte for byte, nothing to review, the turn still ends with the answer', async () => {
    const file = ws('notes.md');
    const original = fs.readFileSync(file);
    const firstLine = original.toString('utf8').split('\n')[0];
    const answer = 'Understood: I left notes.md as it was.';
    model.script([
      { tool: { name: 'Read', input: { file_path: file } } },
      { tool: { name: 'Edit', input: { file_path: file, old_string: firstLine, new_string: `${firstLine} (rejected)` } } },
      (request) => ({ text: request.toolResults.some((r) => r.isError) ? answer : 'the edit was not refused' }),
    ]);
    const api = await howdah();
    const key = await api.newSession(await claudeAgent());
    const turn = api.prompt(key, 'Change the first line of notes.md');
    const answered = answerAll(key, turn, 'reject_once');
    assert.equal(await turn, 'end_turn');
    assert.equal(answered.length, 1, `one prompt, rejected: ${answered.join('; ')}`);
    assert.ok(agentText(api.snapshot(key)).includes(answer), `the model saw the refusal: ${JSON.stringify(agentText(api.snapshot(key)).slice(-120))}`);
    const edit = toolCalls(api.snapshot(key)).find((c) => c.kind === 'edit');
    assert.equal(edit?.status, 'rejected', `Howdah shows the edit as rejected: ${JSON.stringify(edit)}`);
    assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'the file is untouched');
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!(await state()).pending.some((p) => p.fsPath === file), 'nothing to review');
  });

  it("a failing command: its output and exit status reach the model and Howdah's tool call", async () => {
    model.script([
      { tool: { name: 'Bash', input: { command: "sh -c 'echo howdah-agents-42; exit 3'", description: 'Fail on purpose' } } },
      (request) => ({ text: `The command said: ${request.toolResults.map((r) => r.text).join(' | ').slice(0, 200)}` }),
    ]);
    const api = await howdah();
    const key = await api.newSession(await claudeAgent());
    const seen = model.mainRequests().length;
    const turn = api.prompt(key, 'Run the failing check');
    answerAll(key, turn);
    assert.equal(await turn, 'end_turn');
    const result = model.mainRequests().slice(seen).flatMap((r) => r.toolResults).find((r) => r.text.includes('howdah-agents-42'));
    assert.ok(result, 'the output reached the model');
    assert.ok(result.isError && /exit code 3/i.test(result.text), `the model was told it failed with 3: ${JSON.stringify(result)}`);
    const call = toolCalls(api.snapshot(key)).find((c) => c.kind === 'execute');
    assert.equal(call?.status, 'failed', `Howdah shows the command as failed: ${JSON.stringify(call)}`);
    const shown = JSON.stringify([call?.content, call?.rawOutput]);
    assert.ok(shown.includes('howdah-agents-42') && /exit code 3/i.test(shown), `the tool call holds the output and the exit status: ${shown.slice(0, 400)}`);
  });

  it('cancelling mid-turn: the turn ends cancelled, the partial answer stays, the next prompt works', async () => {
    const partial = 'I am halfway through a long answer about the elephant';
    model.script([{ text: partial, stall: true }]);
    const api = await howdah();
    const key = await api.newSession(await claudeAgent());
    const turn = api.prompt(key, 'Tell me a long story');
    await waitFor('the partial answer', () => agentText(api.snapshot(key)).includes(partial) || undefined);
    await api.cancel(key);
    assert.equal(await turn, 'cancelled');
    assert.ok(agentText(api.snapshot(key)).includes(partial), 'the partial answer stays');
    // claude-agent-acp 0.23.1 answers the first prompt after a cancel at once (end_turn, zero usage: it takes the
    // interrupted turn's leftover result for it) and asks the model only when the next prompt drives its loop; that
    // answer then streams in. A user sees the session go on after one more prompt; Howdah must neither hang nor drop
    // the late text. (Seen the same over plain stdio without Howdah: an agent bug, not ours.)
    model.script([{ text: 'Back again.' }]);
    assert.equal(await api.prompt(key, 'Shorter, please'), 'end_turn');
    if (!agentText(api.snapshot(key)).includes('Back again.')) assert.equal(await api.prompt(key, 'Are you there?'), 'end_turn');
    await waitFor('the answer after the cancel', () => agentText(api.snapshot(key)).includes('Back again.') || undefined);
  });

  it("a file the agent changes with its own shell tool (sed -i) is a pending change with its exact original; Reject restores it", async () => {
    await shellEditIsReviewed(await claudeAgent(), model, 'claude', (command) => ({ tool: { name: 'Bash', input: { command, description: 'Edit with sed' } } }));
  });

  it("the howdah editor-context MCP server: the model's read_file gets the unsaved buffer, and the call is in the transcript", async () => {
    assert.equal(await editorContextReadReachesModel(await claudeAgent(), model), 'mcp__howdah__read_file');
  });

  it('a message sent while the agent works is queued and goes, after the turn, as the next prompt the model sees', async () => {
    await queuedMessageReachesModel(await claudeAgent(), model, (command) => ({ tool: { name: 'Bash', input: { command, description: 'Slow check' } } }));
  });

  it('Send now on a queued message goes into the running turn (claude-agent-acp takes messages mid-turn): the model sees it, nothing is stopped', async () => {
    model.script([
      (request) => (request.prompt.includes('howdah-interjected') ? { text: `Saw it: ${request.prompt.trim()}` } : { tool: { name: 'Bash', input: { command: 'sleep 3 && echo howdah-slow', description: 'Slow check' } } }),
      // Claude Code hands the model a message sent mid-turn with the next tool result.
      (request) => ({ text: request.toolResults.some((r) => r.text.includes('howdah-interjected')) ? 'Saw it: howdah-interjected, with the tool result' : 'Slow check done.' }),
    ]);
    const api = await howdah();
    const key = await api.newSession(await claudeAgent());
    api.setActive(key);
    const snapshot = () => api.snapshot(key) as { turn: string; queue: { id: number; text: string }[]; entries: { kind: string; role?: string; text?: string; stopReason?: string }[] };
    const first = api.panelIntent({ type: 'send', text: 'Run the slow check', attachments: [] });
    const answered = answerAll(key, first);
    await waitFor('the slow command to be under way', () => toolCalls(api.snapshot(key)).some((c) => c.status === 'pending' || c.status === 'in_progress') || undefined, 30000);
    await api.panelIntent({ type: 'send', text: 'and also say howdah-interjected', attachments: [] });
    const queued = snapshot().queue[0];
    assert.equal(queued?.text, 'and also say howdah-interjected');
    await api.panelIntent({ type: 'queueSendNow', id: queued.id });
    assert.deepEqual(snapshot().queue, [], 'out of the queue, into the turn');
    assert.equal(snapshot().turn, 'running', 'the turn was not stopped');
    await first;
    await waitFor('the turn to end', () => snapshot().turn === 'idle' || undefined, 60000);
    const s = snapshot();
    assert.deepEqual(s.entries.filter((e) => e.kind === 'message' && e.role === 'user').map((e) => e.text), ['Run the slow check', 'and also say howdah-interjected']);
    assert.match(agentText(s), /Saw it: howdah-interjected/, `the model read it within the turn (permissions: ${answered.join('; ') || 'none'})`);
    assert.deepEqual(s.entries.filter((e) => e.kind === 'turn-end').map((e) => e.stopReason), ['end_turn'], 'one turn, never cancelled');
  });

  it('Edit message: the new session’s first model request carries the turns before it and the edit, not the discarded turn', async () => {
    await editAndResendCarriesOnlyTheKeptTurns(await claudeAgent(), model);
  });

  it('its own context leaves room for a carried conversation (hand-over, fork): measured from its first model request', async () => {
    await ownContextFitsBesideTheCarriedConversation(await claudeAgent(), model, 'Claude Code');
  });
});
