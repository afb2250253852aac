// What every real-agent test shares: finding the installed agent (run.mjs passes each one's bin, or the reason
// it could not be installed), registering it through Howdah's own `howdah.agents` setting, answering
// permission prompts from the session's UI state, reading the review state, and keeping the agent's log when
// a test fails (in HOWDAH_AGENT_LOG_DIR, named after the agent and the test).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, howdah, waitFor, workspaceFolder } from '../integration/helpers';
import type { ModelServer, Step } from './modelServer.mjs';
import { MAX_CONTEXT_CHARS } from '../../src/session/conversationContext';

export interface ToolCallLike {
  toolCallId: string; title?: string; kind?: string; status?: string;
  content?: unknown[]; rawOutput?: unknown; rawInput?: unknown;
  permission?: { options: { optionId: string; kind: string; name?: string }[] };
}

export const ws = (rel: string) => path.join(workspaceFolder().fsPath, rel);
/** The review state: files under review and held proposals (agent writes waiting over unsaved buffers), the edits log. */
export const reviewState = async () => (await vscode.commands.executeCommand('howdah.edits.test.state')) as {
  pending: { fsPath: string; uri: string; kind: string; added: number; removed: number }[];
  proposals: { path: string; mode: string; text: string; uri: string }[];
  log?: string[];
};

/** The file's pending change in Howdah's review; on timeout, fails with the edits log (how Howdah saw the file). */
export async function pendingChange(file: string) {
  try {
    return await waitFor('the pending change', async () => (await reviewState()).pending.find((p) => p.fsPath === file));
  } catch (e) {
    throw new Error(`${String(e)}; edits log:\n${((await reviewState()).log ?? []).slice(-20).join('\n')}`);
  }
}

/** Rejects the agent's changes to `file` as the Agent Changes view does: the exact `original` bytes come back and the file leaves the review. */
export async function rejectToOriginal(file: string, original: Buffer): Promise<void> {
  await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
  await waitFor('the exact original bytes', () => Buffer.compare(fs.readFileSync(file), original) === 0);
  await waitFor('nothing left to review', async () => !(await reviewState()).pending.some((p) => p.fsPath === file));
}
export const toolCalls = (snapshot: unknown) => Object.values((snapshot as { toolCalls?: Record<string, ToolCallLike> }).toolCalls ?? {});

/** The installed agent `name` (claude, codex, gemini, opencode): its bin's real path and version; fails naming the agent. */
export function installedAgent(name: string): { bin: string; version: string } {
  const upper = name.toUpperCase();
  const error = process.env[`HOWDAH_AGENT_${upper}_ERROR`];
  assert.ok(!error, `${name}: could not be installed: ${error}`);
  const bin = process.env[`HOWDAH_AGENT_${upper}_BIN`];
  assert.ok(bin && fs.existsSync(bin), `${name}: HOWDAH_AGENT_${upper}_BIN names the installed agent (${bin})`);
  return { bin, version: process.env[`HOWDAH_AGENT_${upper}_VERSION`] ?? '?' };
}

let seq = 0;

/** Adds an entry to `howdah.agents` and returns its id (a fresh id per call, so each test starts its own agent). */
export async function registerAgent(name: string, entry: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }): Promise<string> {
  const config = vscode.workspace.getConfiguration('howdah');
  const agents = { ...(config.get<Record<string, unknown>>('agents') ?? {}) };
  const id = `${name}-${++seq}`;
  agents[id] = { name: `${name} (offline ${seq})`, ...entry };
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  return id;
}

/**
 * Answers every permission prompt of session `key` with its option of `kind` (allow_once, reject_once…) until
 * `done` settles, as the panel's buttons do. Returns the list of answers ("title → optionId"), filled as it goes.
 */
export function answerAll(key: string, done: Promise<unknown>, kind = 'allow_once'): string[] {
  const answered: string[] = [];
  let over = false;
  void done.finally(() => { over = true; });
  void (async () => {
    const api = await howdah();
    while (!over) {
      for (const call of toolCalls(api.snapshot(key))) {
        const option = call.permission?.options.find((o) => o.kind === kind);
        if (option && api.answerPermission(key, call.toolCallId, option.optionId)) answered.push(`${call.title ?? call.toolCallId} → ${option.optionId}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return answered;
}

/** Starts a session with `agentId` and sends `prompt`; prints how long each took. */
export async function startAndPrompt(agentId: string, prompt: string): Promise<{ key: string; stop: string }> {
  const api = await howdah();
  const t0 = Date.now();
  const key = await api.newSession(agentId);
  const started = Date.now() - t0;
  const stop = await api.prompt(key, prompt);
  console.log(`      (session/new ${started} ms, turn ${Date.now() - t0 - started} ms)`);
  return { key, stop };
}

/** Sends `prompt`, answering every permission prompt with its `kind` option until the turn ends; prints the time and the answers. */
export async function promptAnswering(key: string, prompt: string, kind = 'allow_once'): Promise<{ stop: string; answered: string[] }> {
  const api = await howdah();
  const t0 = Date.now();
  const turn = api.prompt(key, prompt);
  const answered = answerAll(key, turn, kind);
  const stop = await turn;
  console.log(`      (turn ${Date.now() - t0} ms; permissions: ${answered.join('; ') || 'none asked'})`);
  return { stop, answered };
}

/**
 * The mocha hooks every agent suite uses: after a failed test, the agent's log (whole) and the model requests
 * are written to HOWDAH_AGENT_LOG_DIR/<agent>-<test>.log and their tails printed; then pending changes are
 * accepted (the scratch workspace is shared) and every session stopped.
 */
export function agentSuiteHooks(agent: string, model: () => ModelServer | undefined): void {
  after(async () => {
    // One agent's suite must not leave unsaved buffers to the next (a write over a dirty buffer is held, not applied).
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
      console.log(`      ${agent}: reverting an unsaved buffer left behind: ${doc.uri.fsPath}`);
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
  afterEach(async function () {
    const api = await howdah();
    if (this.currentTest?.state === 'failed') {
      const requests = JSON.stringify(model()?.requests.map((r) => ({ path: r.path, replies: r.replies, tools: r.toolNames.length, prompt: r.prompt.slice(0, 60), results: r.toolResults.map((t) => t.text.slice(0, 80)) })), null, 1);
      const logs = api.sessionKeys().map((key) => `── agent log of ${key}\n${api.agentLog(key).join('\n')}`).join('\n');
      const edits = (await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: unknown[]; log?: string[] };
      const review = `── review: ${JSON.stringify(edits.pending)}\n── edits log\n${(edits.log ?? []).join('\n')}`;
      const dir = process.env.HOWDAH_AGENT_LOG_DIR;
      if (dir) {
        const file = path.join(dir, `${agent}-${(this.currentTest.title ?? 'test').replace(/[^\w.-]+/g, '_').slice(0, 60)}.log`);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(file, `${logs}\n${review}\n── model requests\n${requests}\n`);
        console.log(`      ${agent}: agent log kept in ${file}`);
      }
      for (const key of api.sessionKeys()) console.log(`${agent}: agent log of ${key} (tail):\n${api.agentLog(key).slice(-40).join('\n')}`);
      console.log(`${agent}: model requests: ${requests.slice(0, 4000)}`);
    }
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    await api.stopAll();
  });
}

/**
 * A turn in which the model has the agent change a file with its own shell tool (`sed -i`: no fs/* and no terminal/*
 * request reaches Howdah, only the change on disk). The file (UTF-8 with a BOM, CRLF) must end as a pending change of
 * one line, and Reject must give back its exact bytes. `shellStep` is the agent's own shell tool call for `command`.
 */
export async function shellEditIsReviewed(agentId: string, model: ModelServer, name: string, shellStep: (command: string) => Step): Promise<void> {
  const file = ws(`shell-edit-${name}.txt`);
  const original = Buffer.from('\ufeffkeep this line\r\nreplace-me here\r\nthe last line\r\n');
  fs.writeFileSync(file, original);
  try {
    model.script([shellStep(`sed -i 's/replace-me/changed-by-sed/' ${file}`), { text: 'Changed it with sed.' }]);
    const api = await howdah();
    const key = await api.newSession(agentId);
    const { stop } = await promptAnswering(key, `Use sed to change replace-me in ${file}`);
    assert.equal(stop, 'end_turn');
    assert.ok(fs.readFileSync(file, 'utf8').includes('changed-by-sed here'), `the command changed the file: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`);
    const change = await pendingChange(file);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await rejectToOriginal(file, original);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * The prompt queue with a real agent: a message sent in the panel while a turn runs (the model's first step is a
 * slow shell command) is queued, not sent; when the turn ends it goes as the next turn, and the model is asked with
 * it as the user's prompt. `shellStep` is the agent's own shell tool call for `command`.
 */
export async function queuedMessageReachesModel(agentId: string, model: ModelServer, shellStep: (command: string) => Step): Promise<void> {
  // Steps count from each user prompt: the queued one is answered at once, the first runs the slow command.
  const queuedAnswer = (request: { prompt: string }) => ({ text: `Queued prompt seen: ${request.prompt.trim()}` });
  model.script([
    (request) => (request.prompt.includes('howdah-queued') ? queuedAnswer(request) : shellStep('sleep 2 && echo howdah-queue-first')),
    { text: 'First turn done.' },
  ]);
  const api = await howdah();
  const key = await api.newSession(agentId);
  api.setActive(key);
  const users = () => ((api.snapshot(key) as { entries: { kind: string; role?: string; text?: string }[] }).entries).filter((e) => e.kind === 'message' && e.role === 'user').map((e) => e.text);
  const first = api.panelIntent({ type: 'send', text: 'Run the slow check', attachments: [] });
  const answered = answerAll(key, first);
  await waitFor('the first turn to run', () => (api.snapshot(key) as { turn: string }).turn === 'running' || undefined);
  await api.panelIntent({ type: 'send', text: 'and then say howdah-queued', attachments: [] });
  const queued = (api.snapshot(key) as { queue?: { text: string }[] }).queue;
  assert.deepEqual(queued?.map((q) => q.text), ['and then say howdah-queued'], 'queued while the turn runs');
  assert.deepEqual(users(), ['Run the slow check'], 'not sent yet');
  await first;
  // The model streams its answer in pieces: wait for the whole of it and the turn's end, not its first words.
  const answeredInFull = /Queued prompt seen: [\s\S]*and then say howdah-queued/;
  const second = waitFor('the queued message to be answered in full', () => (answeredInFull.test(agentText(api.snapshot(key))) && (api.snapshot(key) as { turn: string }).turn === 'idle' ? true : undefined), 60000);
  answerAll(key, second);
  await second;
  assert.deepEqual(users(), ['Run the slow check', 'and then say howdah-queued']);
  // The model's request for the queued message follows the whole first turn. Its wording is the agent's: Claude Code
  // wraps a message that reaches it while it still winds the last turn down ("The user sent a new message while you
  // were working: …"), so the text is looked for, not a line of its own.
  const request = model.mainRequests().find((r) => r.prompt.includes('and then say howdah-queued'));
  assert.ok(request, `the model got the queued message (permissions: ${answered.join('; ') || 'none'})`);
  assert.ok(JSON.stringify(request.body).includes('First turn done.'), `the model saw the first turn end before it: ${JSON.stringify(request.prompt.slice(0, 200))}`);
  assert.match(agentText(api.snapshot(key)), answeredInFull, 'its answer reached the transcript');
  assert.deepEqual((api.snapshot(key) as { queue?: unknown[] }).queue, []);
}

/**
 * How much of the model's context the agent itself takes for a one-line prompt (its system prompt, tool definitions,
 * reminders): the size of its first model request, in characters (about four to a token). The conversation a
 * hand-over or fork carries (MAX_CONTEXT_CHARS) must fit beside it in a 200k-token window with room to work.
 */
export async function ownContextFitsBesideTheCarriedConversation(agentId: string, model: ModelServer, name: string): Promise<void> {
  model.script([{ text: 'Hello.' }]);
  const api = await howdah();
  const key = await api.newSession(agentId);
  const seen = model.mainRequests().length;
  assert.equal(await api.prompt(key, 'Say hello'), 'end_turn');
  const first = model.mainRequests()[seen];
  assert.ok(first, 'the agent asked the model');
  const own = JSON.stringify(first.body).length;
  const window = 200_000 * 4;
  console.log(`      ${name}: its own context for a one-line prompt ${own.toLocaleString('en-US')} characters (~${Math.round(own / 4).toLocaleString('en-US')} tokens); carried conversation at most ${MAX_CONTEXT_CHARS.toLocaleString('en-US')}; together ${Math.round(((own + MAX_CONTEXT_CHARS) / window) * 100)}% of a 200k-token window`);
  assert.ok(own + MAX_CONTEXT_CHARS < window / 2, `the agent's own context (${own}) and the carried conversation leave half the window free`);
}

/**
 * "Edit message" with a real agent: after two turns, the second message is edited. The edit continues in a new
 * session of the agent, whose first model request carries the first turn (the context Howdah passes on) and the
 * edited text, and nothing of the discarded second turn; the old conversation is kept as the other branch.
 */
export async function editAndResendCarriesOnlyTheKeptTurns(agentId: string, model: ModelServer): Promise<void> {
  model.script([(request) => ({ text: `Seen: ${request.prompt.trim().slice(-60)}` })]);
  const api = await howdah();
  const key = await api.newSession(agentId);
  api.setActive(key);
  assert.equal(await api.prompt(key, 'First, remember howdah-alpha'), 'end_turn');
  assert.equal(await api.prompt(key, 'Second, about howdah-beta'), 'end_turn');
  const second = (api.snapshot(key) as { entries: { id: number; role?: string; text?: string }[] }).entries.find((e) => e.role === 'user' && e.text?.includes('howdah-beta'))!;
  const before = api.sessionKeys();
  const seen = model.mainRequests().length;
  await api.panelIntent({ type: 'editMessage', entryId: second.id, text: 'Second, edited: howdah-gamma' });
  const branch = api.sessionKeys().find((k) => !before.includes(k));
  assert.ok(branch, 'the edit continues in a new conversation');
  await waitFor('the edited turn to end', () => ((api.snapshot(branch) as { turn: string }).turn === 'idle' && agentText(api.snapshot(branch)).includes('Seen:')) || undefined, 60000);
  const asked = model.mainRequests().slice(seen);
  assert.ok(asked.length > 0, 'the new session asked the model');
  const request = JSON.stringify(asked[0].body);
  assert.ok(request.includes('howdah-alpha'), 'the first turn is passed on as context');
  assert.ok(request.includes('howdah-gamma'), 'with the edited message');
  assert.ok(!request.includes('howdah-beta'), 'and nothing of the discarded turn');
  assert.deepEqual(api.branches(branch).map((b) => [b.turn, b.keys.length, b.index]), [[1, 2, 1]], 'Branch 2 of 2');
}

/**
 * Issue 16 with a real agent: the model calls the `howdah` MCP server's `read_file` (named as the agent offers it:
 * the first offered tool whose name has `howdah` and ends in `read_file`) on a file whose editor buffer has changes
 * not saved, and must receive that unsaved text; the agent's tool call shows in Howdah's transcript. Returns the
 * tool name the agent offered.
 */
export async function editorContextReadReachesModel(agentId: string, model: ModelServer): Promise<string> {
  const file = ws(`editor-context-${Date.now()}.ts`);
  fs.writeFileSync(file, 'export const saved = 1;\n');
  const document = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(document);
  await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'export const howdahUnsavedMarker = 42;\n'));
  let offered = '';
  try {
    const readTool = (names: string[]) => names.find((n) => /howdah/.test(n) && /read_file$/.test(n));
    model.script([
      (request) => {
        offered = readTool(request.toolNames) ?? '';
        return offered ? { tool: { name: offered, input: { path: file } } } : { text: `no howdah read_file among: ${request.toolNames.join(', ')}` };
      },
      (request) => ({ text: `Editor said: ${request.toolResults.map((r) => r.text).join(' | ').slice(0, 400)}` }),
    ]);
    const api = await howdah();
    const key = await api.newSession(agentId);
    const { stop } = await promptAnswering(key, `Read ${file} as the editor has it`);
    assert.equal(stop, 'end_turn');
    assert.ok(offered, `the agent offered the howdah read_file tool: ${agentText(api.snapshot(key)).slice(0, 600)}`);
    const result = model.mainRequests().flatMap((r) => r.toolResults).find((r) => r.text.includes('howdahUnsavedMarker'));
    assert.ok(result, `the tool result holds the unsaved line: ${JSON.stringify(model.mainRequests().flatMap((r) => r.toolResults).map((r) => r.text.slice(0, 200)))}`);
    assert.ok(!result.isError && /with unsaved changes/.test(result.text), result.text.slice(0, 300));
    assert.ok(!fs.readFileSync(file, 'utf8').includes('howdahUnsavedMarker'), 'the disk never had it');
    const call = toolCalls(api.snapshot(key)).find((c) => JSON.stringify([c.title, c.rawInput]).includes('read_file') || JSON.stringify(c.rawInput ?? '').includes(file));
    assert.ok(call, `the tool call is in the transcript: ${JSON.stringify(toolCalls(api.snapshot(key)).map((c) => [c.title, c.kind, c.status]))}`);
    assert.equal(call.status, 'completed', JSON.stringify(call));
    console.log(`      (the agent offered ${offered}; its tool call: "${call.title}", ${call.kind})`);
    return offered;
  } finally {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    fs.rmSync(file, { force: true });
  }
}
