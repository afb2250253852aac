import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentTerminalOutputs } from '../../src/terminals/agentOutput';
import { agentText, howdah, waitFor } from '../integration/helpers';
import { agentSuiteHooks, answerAll, installedAgent, pendingChange, promptAnswering, registerAgent, rejectToOriginal, reviewState as state, shellEditIsReviewed, startAndPrompt, toolCalls, ws } from './common';
import { openaiChat } from './dialects/openaiChat.mjs';
import { type ModelServer, startModelServer } from './modelServer.mjs';

// OpenCode (opencode-ai, a Bun-compiled binary; installed by test/agents/install.mjs, run.mjs passes it in
// HOWDAH_AGENT_OPENCODE_BIN) launched through Howdah's own agent configuration as `opencode acp`, its model provider
// an OpenAI-compatible one pointed at a scripted Chat Completions server in this extension host.

let model: ModelServer;
/** Requests OpenCode made that the model server does not serve (an npm install, a models.dev fetch): must stay empty. */
const stray: string[] = [];
/** Each agent's private HOME, removed when the suite ends (after every agent stopped). */
const homes: string[] = [];
const PLUGIN_VERSION = '1.18.33';

/**
 * Registers OpenCode as a Howdah agent whose model is `model`; returns its id. Everything OpenCode keeps (config,
 * database, logs, caches) goes to a fresh HOME with its own XDG dirs; its configuration comes in OPENCODE_CONFIG_CONTENT.
 */
async function opencodeAgent(): Promise<string> {
  const { bin } = installedAgent('opencode');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-opencode-'));
  homes.push(home);
  // OpenCode runs `npm install @opencode-ai/plugin` into every config dir that lacks node_modules or whose
  // package-lock.json does not list what package.json does; a config dir that looks installed keeps it offline.
  const configDir = path.join(home, '.config', 'opencode');
  fs.mkdirSync(path.join(configDir, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': PLUGIN_VERSION };
  fs.writeFileSync(path.join(configDir, 'package.json'), JSON.stringify({ dependencies }));
  fs.writeFileSync(path.join(configDir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      howdah: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Howdah scripted',
        options: { baseURL: `${model.url}/v1`, apiKey: 'test' },
        models: { scripted: { name: 'Scripted model', tool_call: true, limit: { context: 100000, output: 8000 } } },
      },
    },
    model: 'howdah/scripted',
    small_model: 'howdah/scripted', // titles: without it OpenCode picks one of its own hosted models
    permission: { edit: 'ask', bash: 'ask' },
    autoupdate: false,
    share: 'disabled',
  };
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    // should anything still reach for the network, it lands on the model server and shows as a 404 in `stray`
    OPENCODE_MODELS_URL: `${model.url}/models.dev`,
    npm_config_registry: `${model.url}/npm-registry/`,
  };
  return registerAgent('opencode', { command: bin, args: ['acp'], env });
}

interface MessageLike { kind: string; role?: string; messageId?: string; text?: string }
const messages = (snapshot: unknown, role: string) => ((snapshot as { entries: MessageLike[] }).entries).filter((e) => e.kind === 'message' && e.role === role);
/** The text of a Chat Completions message's content (a string or text parts). */
const contentText = (content: unknown) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p?.text ?? '').join('') : '');
const chatMessages = (body: unknown) => ((body as { messages?: { role: string; content: unknown }[] }).messages ?? []);
/** Fails when OpenCode asked the model server for anything it does not serve (an npm install, a models.dev fetch). */
const stayedOffline = () => assert.deepEqual(stray.splice(0), [], 'OpenCode stayed offline');

describe('OpenCode (opencode acp), offline against a scripted OpenAI Chat Completions model', function () {
  this.timeout(120000);

  before(async () => {
    model = await startModelServer({
      dialects: [openaiChat],
      log: (line) => {
        if (line.includes('→ 404')) stray.push(line);
        if (process.env.VERBOSE) console.log(line);
      },
    });
  });
  after(async () => {
    await model?.close();
    for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
  });
  agentSuiteHooks('opencode', () => model);

  it("the model's streamed answer reaches the session snapshot as one message", async () => {
    const answer = 'Hello from the scripted model. Ünïcödé and 🐘 survive chunking; **Markdown** too.\n\n- a list item';
    model.script([{ text: answer }]);
    const from = model.requests.length;
    const api = await howdah();
    const { key, stop } = await startAndPrompt(await opencodeAgent(), 'Say hello');
    assert.equal(stop, 'end_turn');
    const snapshot = api.snapshot(key);
    assert.equal(agentText(snapshot), answer);
    // OpenCode tags every chunk with its own message id (msg_…, not a UUID): the small deltas form one message
    const agent = messages(snapshot, 'agent');
    assert.equal(agent.length, 1, `one agent message: ${JSON.stringify(agent)}`);
    assert.match(agent[0].messageId ?? '', /^msg_/);
    const main = model.requests.slice(from).filter((r) => r.toolNames.length > 0);
    assert.ok(main.some((r) => r.prompt.includes('Say hello')), 'the prompt reached the model');
    assert.ok(main.every((r) => r.stream && r.model === 'scripted'), 'streamed requests for the configured model');
    stayedOffline();
  });

  it('read → edit → shell → answer: the edit asks and is pending with the exact baseline, rejecting it restores the original; the exit status shows', async () => {
    const file = ws('src/a.ts');
    const original = fs.readFileSync(file);
    const before = original.toString('utf8');
    const firstLine = before.split('\n')[0];
    const edited = `${firstLine} // changed by OpenCode`;
    const command = "sh -c 'echo howdah-agents-42; exit 3'";
    const answer = 'I read src/a.ts, marked its first line, and ran the check: it failed with exit status 3.';
    model.script([
      { text: 'Let me look at the file.', tool: { name: 'read', input: { filePath: file } } },
      { tool: { name: 'edit', input: { filePath: file, oldString: firstLine, newString: edited } } },
      { tool: { name: 'bash', input: { command, description: 'Run the check' } } },
      { text: answer },
    ]);
    const api = await howdah();
    const key = await api.newSession(await opencodeAgent());
    const { stop, answered } = await promptAnswering(key, 'Mark the first line of src/a.ts, then run the check');
    assert.equal(stop, 'end_turn');
    const snapshot = api.snapshot(key);
    assert.ok(agentText(snapshot).endsWith(answer), `the answer is in the snapshot: ${JSON.stringify(agentText(snapshot).slice(-120))}`);
    // the text before the tools and the answer after them are two messages (two OpenCode message ids), in order
    assert.deepEqual(messages(snapshot, 'agent').map((m) => m.text), ['Let me look at the file.', answer]);
    assert.equal(answered.length, 2, `edit and bash asked, read did not: ${answered.join('; ')}`);

    // what OpenCode sent back to the model: the file's text (numbered lines), then the command's output — only the
    // output: OpenCode 1.18.33 does not tell the model a command's exit status
    const results = model.mainRequests().at(-1)!.toolResults;
    assert.equal(results.length, 3, JSON.stringify(results));
    assert.ok(results[0].text.includes(`1: ${firstLine}`), `the read result holds the file: ${JSON.stringify(results[0].text)}`);
    assert.equal(results[1].text, 'Edit applied successfully.');
    assert.equal(results[2].text, 'howdah-agents-42\n');

    const calls = toolCalls(snapshot);
    assert.deepEqual(calls.map((c) => `${c.kind}:${c.status}`), ['read:completed', 'edit:completed', 'execute:completed']);
    // Howdah's view of the command (the panel's model of agent-reported output): its output and exit status 3
    const shell = calls[2];
    const outputs = new AgentTerminalOutputs();
    outputs.observe(shell as Parameters<AgentTerminalOutputs['observe']>[0]);
    assert.deepEqual(outputs.tail(`tool:${shell.toolCallId}`), { output: 'howdah-agents-42\n', truncated: false, exit: { code: 3, signal: null }, running: false });

    // OpenCode sends the whole new text in fs/write_text_file without waiting for the answer, then writes the same
    // bytes to disk itself (seen in a direct ACP run). Howdah writes it, reading the exact baseline just before — or,
    // when OpenCode's write got there first, writes nothing and its change tracker takes the baseline from the file
    // as it was when the edit was announced. Either way: the edit, with the original as baseline
    assert.equal(fs.readFileSync(file, 'utf8'), before.replace(firstLine, edited));
    const change = await pendingChange(file);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await rejectToOriginal(file, original);
    stayedOffline();
  });

  it('a rejected edit ends the turn: the file stays byte for byte, nothing to review, the model hears of it next turn', async () => {
    const file = ws('notes.md');
    const original = fs.readFileSync(file);
    const firstLine = original.toString('utf8').split('\n')[0];
    const answer = 'Understood: I left notes.md as it was.';
    model.script([
      { tool: { name: 'read', input: { filePath: file } } },
      { tool: { name: 'edit', input: { filePath: file, oldString: firstLine, newString: `${firstLine} (rejected)` } } },
      { text: 'OpenCode went on after the rejection' },
    ]);
    const from = model.requests.length;
    const api = await howdah();
    const key = await api.newSession(await opencodeAgent());
    const turn = api.prompt(key, 'Change the first line of notes.md');
    const answered = answerAll(key, turn, 'reject_once');
    assert.equal(await turn, 'end_turn');
    assert.deepEqual(answered.map((a) => a.split(' → ')[1]), ['reject'], `one prompt, rejected: ${answered.join('; ')}`);
    // OpenCode stops its loop on a refusal (unless experimental.continue_loop_on_deny): no model request after it
    assert.deepEqual(model.requests.slice(from).filter((r) => r.toolNames.length > 0).map((r) => r.replies), [0, 1]);
    const edit = toolCalls(api.snapshot(key)).find((c) => c.kind === 'edit');
    assert.equal(edit?.status, 'rejected', `Howdah shows the edit as rejected: ${JSON.stringify(edit)}`);
    assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'the file is untouched');

    // the refusal is in the conversation the model gets on the next prompt, as the edit call's tool result
    const told = (body: unknown) => chatMessages(body).some((m) => m.role === 'tool' && /rejected permission/.test(contentText(m.content)));
    model.script([(request) => ({ text: told(request.body) ? answer : 'the model was not told' })]);
    assert.equal(await api.prompt(key, 'Why did you stop?'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).endsWith(answer), `the model saw the refusal: ${JSON.stringify(agentText(api.snapshot(key)).slice(-120))}`);
    assert.equal(Buffer.compare(fs.readFileSync(file), original), 0, 'the file is still untouched');
    assert.ok(!(await state()).pending.some((p) => p.fsPath === file), 'nothing to review');
    stayedOffline();
  });

  it('cancelling mid-answer: the turn ends cancelled, the partial text stays, the next prompt works', async () => {
    const partial = 'Thinking out loud, partial…';
    model.script([{ text: partial, stall: true }]);
    const api = await howdah();
    const key = await api.newSession(await opencodeAgent());
    const turn = api.prompt(key, 'Tell me a long story');
    await waitFor('the partial text', () => agentText(api.snapshot(key)).includes(partial), 30000);
    const stalled = model.mainRequests().length;
    await api.cancel(key);
    assert.equal(await turn, 'cancelled');
    assert.equal(agentText(api.snapshot(key)), partial, 'the partial text stays');
    assert.equal(model.mainRequests().length, stalled, 'no model request after the cancel');

    const answer = 'A short story instead.';
    model.script([{ text: answer }]);
    assert.equal(await api.prompt(key, 'A short one, then'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).endsWith(answer), `the next turn answers: ${JSON.stringify(agentText(api.snapshot(key)))}`);
    assert.equal(model.mainRequests().at(-1)!.prompt, 'A short one, then');
    stayedOffline();
  });

  it("a file the agent changes with its own shell tool (sed -i) is a pending change with its exact original; Reject restores it", async () => {
    await shellEditIsReviewed(await opencodeAgent(), model, 'opencode', (command) => ({ tool: { name: 'bash', input: { command, description: 'Edit with sed' } } }));
  });
});
