import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentTerminalOutputs, type ToolCallLike as OutputCall } from '../../src/terminals/agentOutput';
import { agentText, howdah, waitFor } from '../integration/helpers';
import { agentSuiteHooks, answerAll, installedAgent, pendingChange, promptAnswering, registerAgent, rejectToOriginal, shellEditIsReviewed, queuedMessageReachesModel, ownContextFitsBesideTheCarriedConversation, editAndResendCarriesOnlyTheKeptTurns, editorContextReadReachesModel, startAndPrompt, toolCalls, ws } from './common';
import { openaiResponses } from './dialects/openaiResponses.mjs';
import { type ModelServer, startModelServer } from './modelServer.mjs';

// Codex (codex-acp, installed by test/agents/install.mjs; run.mjs passes its npm launcher in HOWDAH_AGENT_CODEX_BIN)
// launched through Howdah's own agent configuration, its model provider pointed at a scripted OpenAI Responses
// server in this extension host. Its configuration is a CODEX_HOME made for this suite (config.toml: a custom
// provider `scripted` with wire_api "responses"); with a provider other than `openai` codex-acp never asks for
// credentials, so `session/new` works without signing in.

let model: ModelServer;
let codexHome: string;

/**
 * The native binary the npm launcher (`bin/codex-acp.js`) would spawn, from its platform package next to it;
 * launching it directly leaves no Node process between Howdah and the agent. Falls back to the launcher.
 */
function codexCommand(): { command: string; args: string[] } {
  const { bin } = installedAgent('codex');
  const native = path.resolve(path.dirname(bin), '..', '..', `codex-acp-${process.platform}-${process.arch}`, 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');
  return fs.existsSync(native) ? { command: native, args: [] } : { command: process.execPath, args: [bin] };
}

/**
 * Registers Codex as a Howdah agent whose model is `model`; returns its id. `config` are `-c key=value` overrides
 * of the suite's config.toml (TOML values), e.g. `approval_policy="untrusted"` to make it ask.
 */
async function codexAgent(...config: string[]): Promise<string> {
  const { command, args } = codexCommand();
  return registerAgent('codex', {
    command,
    args: [...args, ...config.flatMap((c) => ['-c', c])],
    env: { CODEX_HOME: codexHome, OPENAI_API_KEY: 'test' },
  });
}

/**
 * config.toml for the scripted provider. `gpt-5.4` is a model Codex knows (an unknown slug makes it send a
 * "Model metadata … not found" warning as agent message text, and offer no apply_patch tool). The bubblewrap
 * sandbox cannot run here (no bwrap in the container: every sandboxed command and even apply_patch's file read
 * fail), so: danger-full-access; approval_policy never, as Codex runs by default in this mode (the permission
 * test asks for untrusted). No retries, so a dialect mistake fails at once.
 */
function writeConfig(home: string, baseUrl: string): void {
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model = "gpt-5.4"',
      'model_provider = "scripted"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '',
      '[model_providers.scripted]',
      'name = "Scripted model"',
      `base_url = "${baseUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
}

const patchOf = (file: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-${from}\n+${to}\n*** End Patch\n`;
const callOfKind = (key: string, kind: string) => async () => toolCalls((await howdah()).snapshot(key)).find((c) => c.kind === kind);

describe('Codex (codex-acp), offline against a scripted OpenAI Responses model', function () {
  this.timeout(120000);

  before(async () => {
    model = await startModelServer({ dialects: [openaiResponses], log: (line) => { if (process.env.VERBOSE) console.log(line); } });
    codexHome = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-codex-home-'));
    writeConfig(codexHome, model.url);
  });
  agentSuiteHooks('codex', () => model);
  after(async () => {
    await (await howdah()).stopAll();
    await model?.close();
    if (codexHome) fs.rmSync(codexHome, { recursive: true, force: true });
  });

  it("the model's streamed answer reaches the session snapshot", async () => {
    const answer = 'Hello from the scripted model. Ünïcödé and 🐘 survive chunking; **Markdown** too.';
    model.script([{ text: answer }]);
    const api = await howdah();
    const { key, stop } = await startAndPrompt(await codexAgent(), 'Say hello');
    assert.equal(stop, 'end_turn');
    assert.equal(agentText(api.snapshot(key)), answer);
    const request = model.mainRequests().find((r) => r.prompt === 'Say hello');
    assert.ok(request, `the prompt reached the model: ${JSON.stringify(model.mainRequests().map((r) => r.prompt))}`);
    assert.equal(request.path, '/v1/responses');
  });

  it('read → edit → shell → answer: the read and the exit status reach Howdah, the edit is a pending change, and rejecting it restores the exact original', async () => {
    const file = ws('src/a.ts');
    const original = fs.readFileSync(file);
    const before = original.toString('utf8');
    const firstLine = before.split('\n')[0];
    const edited = `${firstLine} // changed by Codex`;
    const answer = 'I read src/a.ts, marked its first line, and ran the check: it failed with exit code 3.';
    model.script([
      { text: 'Let me look at the file.', tool: { name: 'exec_command', input: { cmd: `cat ${file}` } } },
      { tool: { name: 'apply_patch', input: patchOf(file, firstLine, edited) } },
      { tool: { name: 'exec_command', input: { cmd: "sh -c 'echo howdah-agents-42; exit 3'" } } },
      { text: answer },
    ]);
    const api = await howdah();
    const key = await api.newSession(await codexAgent());
    const { stop, answered } = await promptAnswering(key, 'Mark the first line of src/a.ts, then run the check');
    assert.equal(stop, 'end_turn');
    assert.equal(answered.length, 0, 'approval_policy never: Codex asks nothing');
    assert.ok(agentText(api.snapshot(key)).endsWith(answer), `the answer is in the snapshot: ${JSON.stringify(agentText(api.snapshot(key)).slice(-120))}`);

    // what the agent sent back to the model: the file's text (read with `cat` through its shell), the patch's
    // success, the command's output and exit code
    const results = model.mainRequests().flatMap((r) => r.toolResults);
    const shown = JSON.stringify(results.map((r) => r.text.slice(0, 160)));
    assert.ok(results.some((r) => r.text.includes(firstLine)), `the read result holds the file: ${shown}`);
    assert.ok(results.some((r) => r.text.includes('Success. Updated the following files')), `the patch result: ${shown}`);
    assert.ok(results.some((r) => r.text.includes('howdah-agents-42') && /exited with code 3/.test(r.text)), `the command result holds its output and exit code: ${shown}`);

    // Howdah's tool calls (a completion may come after the turn's answer). To a client that advertises
    // _meta.terminal_output, as Howdah does, Codex sends a `cat` read with no content: the file text only in rawOutput.
    const read = await waitFor('the read completed', async () => { const c = await callOfKind(key, 'read')(); return c?.status === 'completed' ? c : undefined; });
    assert.ok(JSON.stringify([read.content, read.rawOutput]).includes(JSON.stringify(before).slice(1, -1)), `the read holds the file: ${JSON.stringify(read)}`);
    assert.equal((await callOfKind(key, 'edit')())?.status, 'completed');
    // the command: a `terminal` content and _meta.terminal_info, its exit in _meta.terminal_exit, its output only
    // in rawOutput; a non-zero exit is a `failed` call
    const exec = await waitFor('the command ended', async () => { const c = await callOfKind(key, 'execute')(); return c?.status === 'failed' || c?.status === 'completed' ? c : undefined; }, 15000);
    assert.equal(exec.status, 'failed', 'a non-zero exit is a failed call');
    const raw = exec.rawOutput as { exit_code?: number; aggregated_output?: string } | undefined;
    assert.equal(raw?.exit_code, 3, `rawOutput: ${JSON.stringify(raw)}`);
    assert.equal(raw?.aggregated_output, 'howdah-agents-42\n', `rawOutput: ${JSON.stringify(raw)}`);
    // what the panel shows for it (the panel's own model of agent terminals, fed this tool call): one terminal with
    // the output and `exited with code 3`
    const outputs = new AgentTerminalOutputs();
    outputs.observe(exec as OutputCall);
    const ids = outputs.idsForToolCall(exec.toolCallId);
    const tails = ids.map((id) => outputs.tail(id));
    outputs.dispose();
    assert.deepEqual(tails, [{ output: 'howdah-agents-42\n', truncated: false, exit: { code: 3, signal: null }, running: false }], `terminals ${ids.join(', ')}`);

    assert.equal(fs.readFileSync(file, 'utf8'), before.replace(firstLine, edited), 'the agent edited the file on disk');
    const change = await pendingChange(file);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await rejectToOriginal(file, original);
  });

  it('approval_policy untrusted: a rejected edit ends the turn and leaves the file; the same edit allowed changes it', async () => {
    const file = ws('notes.md');
    const original = fs.readFileSync(file);
    const firstLine = original.toString('utf8').split('\n')[0];
    const edited = `${firstLine} (approved)`;
    const api = await howdah();
    const key = await api.newSession(await codexAgent('approval_policy="untrusted"'));

    // rejected: Codex's reject option is "abort" — it tells the model nothing and ends the turn as cancelled
    model.script([{ tool: { name: 'apply_patch', input: patchOf(file, firstLine, edited) } }, { text: 'the model was asked again after the refusal' }]);
    const refused = api.prompt(key, 'Change the first line of notes.md');
    const rejected = answerAll(key, refused, 'reject_once');
    assert.equal(await refused, 'cancelled');
    assert.equal(rejected.length, 1, `one prompt, rejected: ${rejected.join('; ')}`);
    assert.match(rejected[0], /→ abort$/);
    const edit = await callOfKind(key, 'edit')();
    assert.equal(edit?.status, 'rejected', `Howdah shows the edit as rejected: ${JSON.stringify(edit)}`);
    assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'the file is untouched');
    assert.ok(!agentText(api.snapshot(key)).includes('asked again'), 'the model was not asked again');
    assert.equal(model.mainRequests().filter((r) => r.prompt === 'Change the first line of notes.md').length, 1);

    // allowed, in the same session
    const answer = 'Changed the first line of notes.md.';
    model.script([{ tool: { name: 'apply_patch', input: patchOf(file, firstLine, edited) } }, { text: answer }]);
    const turn = api.prompt(key, 'Now do change it');
    const allowed = answerAll(key, turn, 'allow_once');
    assert.equal(await turn, 'end_turn');
    assert.equal(allowed.length, 1, `one prompt, allowed: ${allowed.join('; ')}`);
    assert.match(allowed[0], /→ approved$/);
    assert.ok(agentText(api.snapshot(key)).endsWith(answer));
    assert.equal(fs.readFileSync(file, 'utf8'), original.toString('utf8').replace(firstLine, edited), 'the allowed edit is on disk');
    const change = await pendingChange(file);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await rejectToOriginal(file, original);
  });

  it('cancelled while the model streams: the partial text stays, and the next prompt in the session works', async () => {
    const partial = 'Partial answer, still thinking about ünïcödé…';
    model.script([{ text: partial, stall: true }]);
    const api = await howdah();
    const key = await api.newSession(await codexAgent());
    const turn = api.prompt(key, 'Tell me a long story');
    await waitFor('the partial text', () => agentText(api.snapshot(key)).includes(partial));
    await api.cancel(key);
    assert.equal(await turn, 'cancelled');
    assert.equal(agentText(api.snapshot(key)), partial, 'the partial text stays');

    const answer = 'The second answer, after the cancelled one.';
    model.script([{ text: answer }]);
    assert.equal(await api.prompt(key, 'Short one, please'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).endsWith(answer), `${JSON.stringify(agentText(api.snapshot(key)))}`);
    const second = model.mainRequests().find((r) => r.prompt === 'Short one, please');
    assert.equal(second?.replies, 0, 'the second prompt is a new turn for the model');
  });

  it("a file the agent changes with its own shell tool (sed -i) is a pending change with its exact original; Reject restores it", async () => {
    await shellEditIsReviewed(await codexAgent(), model, 'codex', (command) => ({ tool: { name: 'exec_command', input: { cmd: command } } }));
  });

  it("the howdah editor-context MCP server: the model's read_file gets the unsaved buffer, and the call is in the transcript", async () => {
    // Codex offers an MCP server as a Responses `namespace` tool, `mcp__howdah`, holding `read_file` (the dialect
    // spells it `mcp__howdah.read_file`); its tool call is titled "Tool: howdah/read_file".
    assert.equal(await editorContextReadReachesModel(await codexAgent(), model), 'mcp__howdah.read_file');
  });

  it('a message sent while the agent works is queued and goes, after the turn, as the next prompt the model sees', async () => {
    await queuedMessageReachesModel(await codexAgent(), model, (command) => ({ tool: { name: 'exec_command', input: { cmd: command } } }));
  });

  it('Edit message: the new session’s first model request carries the turns before it and the edit, not the discarded turn', async () => {
    await editAndResendCarriesOnlyTheKeptTurns(await codexAgent(), model);
  });

  it('its own context leaves room for a carried conversation (hand-over, fork): measured from its first model request', async () => {
    await ownContextFitsBesideTheCarriedConversation(await codexAgent(), model, 'Codex');
  });
});
