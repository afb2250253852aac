import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, howdah, waitFor } from '../integration/helpers';
import { agentSuiteHooks, answerAll, installedAgent, registerAgent, reviewState, shellEditIsReviewed, startAndPrompt, toolCalls, type ToolCallLike, ws } from './common';
import { gemini } from './dialects/gemini.mjs';
import { type ModelServer, startModelServer } from './modelServer.mjs';

// Gemini CLI (@google/gemini-cli, installed by test/agents/install.mjs; run.mjs passes its bundle/gemini.js in
// HOWDAH_AGENT_GEMINI_BIN) launched through Howdah's own agent configuration with `--acp`, its model provider pointed
// at a scripted Gemini API (generateContent) server in this extension host.

let model: ModelServer;
/** Gemini CLI's own home for this suite (GEMINI_CLI_HOME): its settings.json, session records, history. */
let geminiHome: string;

/** What keeps Gemini CLI offline and quick; written to $GEMINI_CLI_HOME/.gemini/settings.json. */
const SETTINGS = {
  // A fixed model: with the default "auto" every turn first asks a classifier model (gemini-*-flash-lite,
  // generateContent with a JSON schema) which model to use, and retries it with backoff when the answer is not JSON.
  model: { name: 'gemini-2.5-flash' },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  ide: { enabled: false },
};

/** A fresh GEMINI_CLI_HOME under the suite's, with `settings` in its .gemini/settings.json. */
function makeGeminiHome(dir: string, settings: object): string {
  fs.mkdirSync(path.join(dir, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return dir;
}

/** Registers Gemini CLI as a Howdah agent whose model is `model`; returns its id. */
async function geminiAgent(options: { home?: string; apiKey?: string | null } = {}): Promise<string> {
  const { bin } = installedAgent('gemini');
  const env: Record<string, string> = {
    // With a base URL and no auth type chosen in its settings, session/new picks the "gateway" auth type itself.
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_CLI_HOME: options.home ?? geminiHome,
    // Otherwise gemini.js starts a second Node process of itself (to raise its heap limit): ≈ 1–2 s more per start.
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  if (options.apiKey !== null) env.GEMINI_API_KEY = options.apiKey ?? 'test';
  return registerAgent('gemini', {
    command: process.execPath,
    // 0.61.0 has `--acp`; `--experimental-acp` still works but is documented as deprecated.
    args: [bin, '--acp'],
    env,
  });
}

const results = () => model.mainRequests().at(-1)?.toolResults ?? [];
const resultsText = () => JSON.stringify(results().map((r) => `${r.id}: ${r.text.slice(0, 120)}`));

describe('Gemini CLI (gemini --acp), offline against a scripted Gemini API', function () {
  this.timeout(120000);

  before(async () => {
    model = await startModelServer({ dialects: [gemini], log: (line) => { if (process.env.VERBOSE) console.log(line); } });
    geminiHome = makeGeminiHome(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-gemini-home-')), SETTINGS);
  });
  after(async () => {
    await model?.close();
    if (geminiHome) fs.rmSync(geminiHome, { recursive: true, force: true });
  });
  agentSuiteHooks('gemini', () => model);

  it("the model's streamed answer reaches the session snapshot", async () => {
    const answer = 'Hello from the scripted Gemini. Ünïcödé and 🐘 survive chunking; **Markdown** and `code` too.';
    model.script([{ text: answer }]);
    const api = await howdah();
    const { key, stop } = await startAndPrompt(await geminiAgent(), 'Say hello');
    assert.equal(stop, 'end_turn');
    assert.equal(agentText(api.snapshot(key)).trim(), answer);
    const main = model.mainRequests();
    assert.equal(main.length, 1, `one model request: ${main.map((r) => r.path).join(', ')}`);
    assert.equal(main[0].prompt, 'Say hello', 'the prompt reached the model');
    assert.match(main[0].path, /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/);
    assert.ok(main[0].toolNames.includes('replace') && main[0].toolNames.includes('run_shell_command'), `tools offered: ${main[0].toolNames.join(', ')}`);
    assert.deepEqual(api.protocolProblems(key), []);
  });

  it("an edit of a file with unsaved changes is built on the editor's buffer and held; rejecting it leaves the user's text", async () => {
    const file = ws('src/a.ts');
    const original = fs.readFileSync(file);
    const disk = original.toString('utf8');
    const marker = '  // unsaved: howdah-marker';
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    try {
      await editor.edit((b) => b.insert(new vscode.Position(1, 0), `${marker}\n`));
      const unsaved = editor.document.getText();
      assert.ok(editor.document.isDirty && unsaved !== disk);
      // old_string exists only in the unsaved text: the edit can only work on what the editor holds.
      const oldString = `${marker}\n  return a - b;`;
      const newString = `${marker}\n  return a + b;`;
      const answer = 'Fixed the sign in add().';
      model.script([
        { text: 'Let me read the file first.', tool: { name: 'read_file', input: { file_path: file } } },
        { tool: { name: 'replace', input: { file_path: file, instruction: 'Make add() add instead of subtract.', old_string: oldString, new_string: newString } } },
        (request) => ({ text: request.toolResults.some((r) => r.text.includes('Successfully modified')) ? answer : `the edit failed: ${JSON.stringify(request.toolResults.map((r) => r.text))}` }),
      ]);
      const api = await howdah();
      const t0 = Date.now();
      const key = await api.newSession(await geminiAgent());
      const t1 = Date.now();
      const turn = api.prompt(key, 'Fix add() in src/a.ts');
      const answered = answerAll(key, turn);
      assert.equal(await turn, 'end_turn');
      const t2 = Date.now();
      assert.ok(agentText(api.snapshot(key)).includes(answer), `the edit succeeded: ${JSON.stringify(agentText(api.snapshot(key)).slice(-300))}`);
      assert.equal(answered.length, 1, `one permission prompt (the edit; the read asks none): ${answered.join('; ')}`);

      // What the model received for its read: the file on disk, not the editor's unsaved text (read_file reads the
      // disk itself and never asks the client); the edit result shows the new text, built on the unsaved one.
      const read = results().find((r) => r.text.includes('export function add'));
      assert.equal(read?.text, disk, `the read result is the disk text: ${resultsText()}`);
      const edit = results().find((r) => r.text.includes('Successfully modified'));
      assert.ok(edit?.text.includes(marker) && edit.text.includes('return a + b;'), `the edit result holds the unsaved line and the change: ${resultsText()}`);

      // Howdah's tool calls: the read (announced, completed, no content), the edit (first heard of in its permission
      // request, with a whole-file diff from the unsaved text).
      const calls = toolCalls(api.snapshot(key)) as (ToolCallLike & { announcedLate?: boolean })[];
      assert.deepEqual(calls.map((c) => `${c.kind}:${c.status}`), ['read:completed', 'edit:completed']);
      const editCall = calls[1];
      assert.equal(editCall.announcedLate, true, 'the permission request was the first sign of the edit');
      const diff = (editCall.content ?? []).find((c) => (c as { type?: string }).type === 'diff') as { oldText?: string; newText?: string } | undefined;
      assert.equal(diff?.oldText, unsaved, "the edit's diff starts from the unsaved text");
      assert.equal(diff?.newText, unsaved.replace(oldString, newString));
      assert.deepEqual(api.protocolProblems(key), []);

      // Howdah held the write: the user's unsaved text stays in the editor, nothing was saved over it, and the review
      // lists the agent's text against the buffer (+1 −1: only the changed line; against the disk it would be +2 −1).
      const proposal = await waitFor('the held proposal', async () => (await reviewState()).proposals.find((p) => p.path === file));
      assert.equal(proposal.mode, 'held');
      assert.equal(proposal.text, unsaved.replace(oldString, newString), 'the agent wrote its edit of the unsaved text');
      const listed = await waitFor('the proposal listed as a pending change', async () => (await reviewState()).pending.find((p) => p.uri === proposal.uri));
      assert.deepEqual([listed.kind, listed.added, listed.removed], ['modified', 1, 1]);
      assert.equal(editor.document.getText(), unsaved, "the user's unsaved text is still in the buffer");
      assert.ok(editor.document.isDirty);
      assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'nothing was saved');

      await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
      await waitFor('the proposal to go', async () => !(await reviewState()).proposals.some((p) => p.path === file));
      assert.equal(editor.document.getText(), unsaved, 'after rejecting, the buffer is exactly what the user had');
      assert.ok(editor.document.isDirty, 'and still unsaved');
      assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'the disk bytes are exactly the original');
      assert.ok(!(await reviewState()).pending.some((p) => p.fsPath === file), 'nothing left to review');
      console.log(`      (session/new ${t1 - t0} ms, turn ${t2 - t1} ms, review ${Date.now() - t2} ms)`);
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('a command: permission first, then it runs; its output and exit status reach the model', async () => {
    const command = "sh -c 'echo howdah-agents-42; exit 3'";
    const answer = 'The check printed its marker and exited with 3.';
    model.script([
      { tool: { name: 'run_shell_command', input: { command, description: 'Print a marker and fail' } } },
      (request) => ({ text: request.toolResults.some((r) => r.text.includes('howdah-agents-42') && r.text.includes('Exit Code: 3')) ? answer : `unexpected: ${JSON.stringify(request.toolResults)}` }),
    ]);
    const api = await howdah();
    const key = await api.newSession(await geminiAgent());
    const turn = api.prompt(key, 'Run the check');
    // Before anything runs, the permission request is the only sign of the command: Howdah made the tool call from it.
    const asked = await waitFor('the permission prompt', () => toolCalls(api.snapshot(key)).find((c) => c.permission));
    assert.equal(asked.kind, 'execute');
    assert.equal(asked.title, command);
    assert.equal((asked as { announcedLate?: boolean }).announcedLate, true, 'no tool_call came before the permission request');
    assert.deepEqual(asked.permission?.options.map((o) => `${o.optionId}/${o.kind}`), ['proceed_always/allow_always', 'proceed_once/allow_once', 'cancel/reject_once']);
    const answered = answerAll(key, turn);
    assert.equal(await turn, 'end_turn');
    assert.equal(answered.length, 1, answered.join('; '));
    assert.ok(agentText(api.snapshot(key)).includes(answer), `the model saw the output and exit status: ${resultsText()}`);
    const result = results()[0];
    assert.match(result.text, /Output: howdah-agents-42\nExit Code: 3/);

    // What Howdah's tool call holds once it completed: Gemini's completion carries no content (the output went to the
    // model only), and a non-zero exit is still "completed".
    const calls = toolCalls(api.snapshot(key));
    assert.equal(calls.length, 1);
    const [call] = calls as (ToolCallLike & { permissionAnswer?: { optionId: string } })[];
    console.log(`      (the completed command in the snapshot: ${JSON.stringify({ ...call, permission: undefined })})`);
    assert.equal(call.status, 'completed');
    assert.equal(call.title, command, 'the command is shown');
    assert.equal(call.permissionAnswer?.optionId, 'proceed_once');
    assert.deepEqual(api.protocolProblems(key), [], 'a permission request before any tool_call, and an update for it, break no rule');
  });

  it('a command whose permission is rejected: nothing runs, the model is told', async () => {
    const marker = ws('gemini-rejected-marker.txt');
    fs.rmSync(marker, { force: true });
    const answer = 'Understood: I did not run it.';
    model.script([
      { tool: { name: 'run_shell_command', input: { command: `sh -c 'echo ran > ${marker}; exit 3'`, description: 'Write a marker' } } },
      (request) => ({ text: request.toolResults.some((r) => r.isError && /canceled by the user/.test(r.text)) ? answer : `not refused: ${JSON.stringify(request.toolResults)}` }),
    ]);
    const api = await howdah();
    const key = await api.newSession(await geminiAgent());
    const turn = api.prompt(key, 'Write the marker');
    const answered = answerAll(key, turn, 'reject_once');
    assert.equal(await turn, 'end_turn');
    assert.equal(answered.length, 1, answered.join('; '));
    assert.ok(agentText(api.snapshot(key)).includes(answer), `the model was told: ${resultsText()}`);
    assert.ok(!fs.existsSync(marker), 'the command did not run');
    const calls = toolCalls(api.snapshot(key));
    assert.deepEqual(calls.map((c) => `${c.kind}:${c.status}`), ['execute:rejected']);
    assert.deepEqual(api.protocolProblems(key), []);
  });

  it('cancelling mid-answer: the turn ends cancelled, the partial text stays, the next prompt works', async () => {
    const partial = 'Partial answer, the model is still talking… ✍️';
    model.script([{ text: partial, stall: true }]);
    const api = await howdah();
    const key = await api.newSession(await geminiAgent());
    const turn = api.prompt(key, 'Talk slowly');
    await waitFor('the partial text', () => agentText(api.snapshot(key)).includes(partial));
    await api.cancel(key);
    assert.equal(await turn, 'cancelled');
    assert.ok(agentText(api.snapshot(key)).includes(partial), 'the partial text stays');

    const answer = 'Second answer, complete.';
    model.script([{ text: answer }]);
    assert.equal(await api.prompt(key, 'Now answer in full'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).endsWith(answer), JSON.stringify(agentText(api.snapshot(key))));
    const last = model.mainRequests().at(-1)!;
    assert.equal(last.prompt, 'Now answer in full');
    // Gemini CLI drops a cancelled turn from its history: the next request does not carry it.
    assert.ok(!JSON.stringify(last.body).includes('Talk slowly'), 'the cancelled turn is not in the next request');
    assert.deepEqual(api.protocolProblems(key), []);
  });
  it('signing in with an API key: the key the user types reaches the agent in authenticate, and the session opens', async () => {
    // A user who chose "Gemini API key" in Gemini CLI before (its settings say so) and has no GEMINI_API_KEY set:
    // session/new answers -32000 "Gemini API key is missing or not configured." until authenticate brings a key.
    const home = makeGeminiHome(path.join(geminiHome, 'api-key-user'), { ...SETTINGS, security: { auth: { selectedType: 'gemini-api-key' } } });
    const answer = 'Signed in with a key, and answering.';
    model.script([{ text: answer }]);
    const api = await howdah();
    const starting = api.newSession(await geminiAgent({ home, apiKey: null }));
    starting.catch(() => undefined); // awaited below; a failed check must not leave it unhandled
    let done = false;
    let key: string;
    try {
      const request = await waitFor('the sign-in question', () => api.signInRequest(), 30000);
      assert.match(request.agentName, /^gemini \(offline \d+\)$/);
      assert.match(request.message, /Gemini API key is missing/);
      assert.deepEqual(
        request.choices.filter((c) => !c.id.startsWith('catalog')).map((c) => `${c.id}${c.asksForKey ? ' (key)' : ''}`),
        ['oauth-personal', 'gemini-api-key (key)', 'vertex-ai', 'gateway'],
      );
      api.chooseSignIn('gemini-api-key', 'AIza-typed-by-the-user');
      // Without the key in authenticate, session/new fails again and the question comes back.
      const askedAgain = (async () => {
        while (!done) {
          const again = api.signInRequest();
          if (again) throw new Error(`asked to sign in again: ${again.message}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        return '';
      })();
      key = await Promise.race([starting, askedAgain]);
    } finally {
      done = true;
      api.chooseSignIn(undefined);
    }
    assert.equal(api.signInRequest(), undefined, 'the question is gone');
    assert.equal(await api.prompt(key, 'Say hello'), 'end_turn');
    assert.equal(agentText(api.snapshot(key)).trim(), answer);
    // Gemini CLI remembers the method in its own settings (not the key).
    const saved = fs.readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8');
    assert.ok(!saved.includes('AIza-typed-by-the-user'), 'the key is not written to its settings');
    assert.ok(api.agentLog(key).some((l) => l.includes('needs a sign-in')), 'the log says why');
  });

  it("a file the agent changes with its own shell tool (sed -i) is a pending change with its exact original; Reject restores it", async () => {
    await shellEditIsReviewed(await geminiAgent(), model, 'gemini', (command) => ({ tool: { name: 'run_shell_command', input: { command, description: 'Edit with sed' } } }));
  });
});
