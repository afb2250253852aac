// The chat panel against the fake agent's scenarios, in the installed .vsix: streamed Markdown, tool calls, the plan,
// permission prompts (allow, reject, cancelled by Stop), the mode / model / option pickers, `/` commands, `@` file
// mentions and Stop; and a long answer of the stress agent's, whole. One workbench load for the whole file; each test
// starts its own session with "Howdah: Choose Agent…" (which makes that agent the default: the default is put back
// afterwards). Elements are found by role and accessible name; what reached the agent is read from the fake agents' log
// (e2e.agentLog).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { button, promptBox, sendPrompt } from '../harness/panel.mjs';
import { openHowdahView, openPalette } from '../harness/workbench.mjs';
import { closeAllSessions, until } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

const { streamedAnswer } = createRequire(import.meta.url)('../../fixtures/stress-agent/markdown.js');

/** The messages the fake agents received so far (`dir: "in"`), optionally only those of `method`. */
function received(method) {
  if (!fs.existsSync(e2e.agentLog)) return [];
  return fs.readFileSync(e2e.agentLog, 'utf8').split('\n').filter(Boolean)
    .map(line => { try { return JSON.parse(line); } catch { return {}; } })
    .filter(e => e.dir === 'in' && e.msg && (!method || e.msg.method === method)).map(e => e.msg);
}

/** "Howdah: Choose Agent…", then the agent labelled `name`; resolves when the panel shows its new, empty session. */
async function startSession(page, wv, name) {
  const input = await openPalette(page);
  await input.fill('>Howdah: Choose Agent');
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Howdah: Choose Agent' }).waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'Choose an agent' }).waitFor({ timeout: 15000 });
  await input.fill(name);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.locator('.quick-input-widget').getByRole('option', { name: new RegExp(`^${escaped}(,|$)`) }).first().click({ timeout: 10000 });
  await conversation(wv).getByText(`Ask ${name} anything.`, { exact: false }).waitFor({ timeout: 30000 });
}

/** The turn is over: Stop is gone and Send can be pressed again. */
async function turnEnded(wv, timeout = 20000) {
  await wv.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout });
  await until('Send to be enabled', () => button(wv, 'Send').isEnabled(), timeout);
}

const toolCard = (wv, title) => wv.getByRole('article', { name: `Tool call: ${title}`, exact: true });
/** The transcript (text in it, not the screen reader announcements of the same text). */
const conversation = wv => wv.getByRole('region', { name: 'Conversation' });

describe('the chat panel with the fake agent (installed .vsix)', function () {
  this.timeout(60000);
  const shot = suiteScreenshots('panel');
  let wv;
  const page = () => e2e.page;
  before(async function () {
    this.timeout(120000);
    await loadWorkbench();
    wv = await openHowdahView(e2e.page);
  });
  after(async () => {
    // A dozen conversations, one per test: the suites after this one start with a panel of their own.
    if (wv) await closeAllSessions(e2e.page, wv).catch(() => {});
    // Choose Agent made the last agent the default and the pickers remembered their values: put both back.
    const file = path.join(e2e.server.dataDir, 'User', 'settings.json');
    try {
      const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
      settings['howdah.defaultAgent'] = 'demo';
      delete settings['howdah.sessionDefaults'];
      fs.writeFileSync(file, JSON.stringify(settings, null, 2));
    } catch { /* the settings file is VS Code's; a run without it needs nothing put back */ }
  });

  it('streams Markdown: headings, a list, a link, a code block with Copy', async () => {
    await startSession(page(), wv, 'Fake (markdown)');
    await sendPrompt(wv, 'Show me an example');
    await wv.getByRole('heading', { name: 'Greeting helper' }).waitFor({ timeout: 20000 });
    await conversation(wv).getByText('Ünïcödé and emoji 🐘 survive chunking', { exact: false }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    const answer = wv.locator('.entry.agent').last();
    assert.deepEqual(await answer.getByRole('heading').allInnerTexts(), ['Greeting helper', 'Example']);
    assert.deepEqual(await answer.getByRole('listitem').allInnerTexts(), ['trims the name', 'falls back to world', 'returns a sentence']);
    assert.equal(await answer.getByRole('link', { name: 'Node.js docs' }).getAttribute('title'), 'https://nodejs.org/api/');
    assert.match(await answer.locator('pre code').innerText(), /^function greet\(name = 'world'\) \{\n {2}return `Hello, \$\{name\.trim\(\)\}!`;\n\}/);
    const copy = answer.getByRole('button', { name: 'Copy code' });
    await copy.click();
    await answer.getByRole('button', { name: 'Copied' }).waitFor({ timeout: 5000 });
    // The thought is folded under "Thought"; opening it shows the agent's thinking.
    await conversation(wv).getByText('Thought', { exact: true }).click();
    await conversation(wv).getByText('The user wants an example.', { exact: false }).waitFor({ timeout: 5000 });
    await shot('markdown');
  });

  it('streams a long answer whole: 512 KiB in 4,000 chunks, every section in its place', async () => {
    // (the page gets most of it as UTF-8 bytes, src/shared/postedText.ts, and the far part as placeholders; what
    // floods in faster than the window takes it comes newest part first, the rest after)
    const chunks = 4000;
    const bytes = 512 * 1024;
    const end = `STRESS-END ${chunks}`;
    const sections = streamedAnswer(chunks, bytes).match(/^## Section \d+$/gm).length;
    await startSession(page(), wv, 'Stress agent');
    const resyncs = () => wv.locator('body').evaluate(() => window.__howdah.resyncs());
    const before = await resyncs();
    await sendPrompt(wv, `stream ${chunks} ${bytes}`);
    await conversation(wv).getByText(end, { exact: false }).waitFor({ timeout: 30000 });
    await turnEnded(wv);
    // (text that flooded in faster than the window took it follows its newest part: src/panel/floodGaps.ts)
    await wv.locator('.entry.agent .flood').first().waitFor({ state: 'detached', timeout: 30000 });
    const text = await wv.locator('.entry.agent').last().evaluate((el) => el.textContent);
    const found = [...text.matchAll(/Section (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(found, Array.from({ length: sections }, (_, i) => i + 1), 'every section once, in order');
    assert.equal(text.split(end).length, 2, 'its last line once');
    assert.equal(await resyncs(), before, 'every patch fitted the page’s copy: no snapshot asked for again');
  });

  it('shows tool calls through their statuses, a failed one and one never announced', async () => {
    await startSession(page(), wv, 'Fake (tool-calls)');
    await sendPrompt(wv, 'Fix add()');
    await conversation(wv).getByText('the fetch failed.', { exact: false }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    const status = async title => (await toolCard(wv, title).locator('.tool-status').innerText()).trim();
    assert.equal(await status('Read src/a.ts'), 'Completed');
    assert.equal(await status('Fix add() in src/a.ts'), 'Completed');
    assert.equal(await status('Create src/b.ts'), 'Completed');
    assert.equal(await status('npm test'), 'Completed');
    assert.equal(await status('Fetch https://example.invalid/spec'), 'Failed');
    assert.match(await toolCard(wv, 'Fetch https://example.invalid/spec').innerText(), /getaddrinfo ENOTFOUND example\.invalid/);
    // An update for an id the agent never announced still gets its card, with its content and location.
    const ghost = toolCard(wv, 'Search for TODO');
    assert.equal(await status('Search for TODO'), 'Completed');
    assert.match(await ghost.innerText(), /2 matches/);
    // Paths inside the workspace are shown relative to it; the full path is the tooltip.
    const read = toolCard(wv, 'Read src/a.ts').getByRole('button', { name: 'src/a.ts:1', exact: true });
    assert.equal(await read.getAttribute('title'), `${path.join(e2e.workspace, 'src', 'a.ts')}:1`);
    const edit = toolCard(wv, 'Fix add() in src/a.ts');
    assert.match(await edit.locator('.diff-summary').innerText(), /^\s*src\/a\.ts\s+\+1\s+−1/);
    assert.match(await toolCard(wv, 'Create src/b.ts').locator('.diff-summary').innerText(), /src\/b\.ts\s+\+1\s+−0\s+new file/);
    const terminal = toolCard(wv, 'npm test').getByRole('region', { name: 'Command output' }).or(toolCard(wv, 'npm test').locator('pre.terminal-output'));
    assert.match(await terminal.first().innerText(), /1 passing/);
    // Open diff shows the agent's change in VS Code's diff editor.
    await edit.getByRole('button', { name: 'Open diff of a.ts' }).click();
    await page().locator('.monaco-diff-editor .line-insert').first().waitFor({ timeout: 15000 });
    await page().locator('.tabs-container').getByRole('tab', { name: /a\.ts/ }).first().waitFor({ timeout: 5000 });
    // The location of the never-announced call opens the file at its line.
    await ghost.getByRole('button', { name: 'notes.md:3', exact: true }).click();
    await page().locator('.tabs-container').getByRole('tab', { name: /^notes\.md/ }).waitFor({ timeout: 15000 });
    await page().locator('.part.statusbar').getByText('Ln 3, Col 1').waitFor({ timeout: 5000 });
    await shot('tool-calls');
  });

  it('pins the plan and replaces it as the agent updates it', async () => {
    await startSession(page(), wv, 'Fake (plan)');
    await sendPrompt(wv, 'Make a plan');
    await conversation(wv).getByText('All planned work is done', { exact: false }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    const plan = wv.getByRole('group', { name: 'Plan' });
    assert.match(await plan.locator('summary').innerText(), /Plan · 3\/3 done/);
    if (!(await plan.getByRole('listitem').first().isVisible())) await plan.locator('summary').click();
    const items = await plan.getByRole('listitem').allInnerTexts();
    assert.equal(items.length, 3, items.join(' | '));
    assert.match(items[2], /Add a regression test/);
    assert.ok(!items.some(i => /Update the docs/.test(i)), 'the dropped entry is gone');
    assert.ok(items.every(i => /completed/.test(i)), items.join(' | '));
    await shot('plan');
  });

  it('asks permission: allow, reject, and a prompt cancelled by Stop', async () => {
    await startSession(page(), wv, 'Fake (permission)');
    await sendPrompt(wv, 'Write out.txt');
    await button(wv, 'Allow once').click({ timeout: 20000 });
    await conversation(wv).getByText('Allowed with allow-once.', { exact: true }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    assert.match(await toolCard(wv, 'Write out.txt').innerText(), /You chose\W*Allow once/);

    await sendPrompt(wv, 'Clean the build');
    const asking = wv.getByRole('group', { name: 'The agent asks for permission' });
    await asking.waitFor({ timeout: 20000 });
    assert.equal(await asking.locator('code.permission-command').innerText(), 'rm -rf build', 'the command is shown in full');
    await asking.getByRole('button', { name: 'Reject', exact: true }).click();
    await conversation(wv).getByText('Rejected with reject-once.', { exact: true }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    assert.match(await toolCard(wv, 'rm -rf build').innerText(), /You chose\W*Reject\b/);

    await sendPrompt(wv, 'Delete the notes');
    const card = toolCard(wv, 'Delete notes.md');
    await card.getByRole('group', { name: 'The agent asks for permission' }).waitFor({ timeout: 20000 });
    // The file is named relative to the workspace, and in full.
    const prompt = card.getByRole('group', { name: 'The agent asks for permission' });
    await prompt.getByRole('button', { name: 'notes.md', exact: true }).waitFor({ timeout: 5000 });
    assert.match(await prompt.innerText(), new RegExp(path.join(e2e.workspace, 'notes.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await shot('permission-waiting');
    await button(wv, 'Stop').click();
    await card.getByText('Permission request cancelled', { exact: false }).waitFor({ timeout: 15000 });
    await conversation(wv).getByText('Stopped: the turn was cancelled.', { exact: true }).last().waitFor({ timeout: 15000 });
    await turnEnded(wv);
    assert.equal((await card.locator('.tool-status').innerText()).trim(), 'Cancelled');
    await shot('permission-cancelled');
  });

  it('changes the mode, model and an option, and follows the agent’s own changes', async () => {
    await startSession(page(), wv, 'Fake (modes)');
    const mode = wv.getByRole('combobox', { name: 'Mode', exact: true });
    const model = wv.getByRole('combobox', { name: 'Model', exact: true });
    const readOnly = wv.getByRole('checkbox', { name: 'Read-only' });
    assert.equal(await mode.inputValue(), 'ask');
    assert.equal(await model.inputValue(), 'fake-fast');
    const sessionId = () => received('session/set_config_option').at(-1)?.params.sessionId;
    const asked = (configId, value) => received('session/set_config_option').some(m => m.params.configId === configId && m.params.value === value);

    await mode.selectOption('architect');
    await until('the agent to get mode=architect', () => asked('mode', 'architect'));
    await model.selectOption('fake-smart');
    await until('the agent to get model=fake-smart', () => asked('model', 'fake-smart'));
    await readOnly.check();
    await until('the agent to get read_only=true', () => asked('read_only', true));
    assert.ok(sessionId(), 'the requests name the session');
    assert.equal(await mode.inputValue(), 'architect');
    assert.equal(await model.inputValue(), 'fake-smart');

    // The agent's first answer switches to code mode and reports its options (model fake-fast, read-only off).
    await sendPrompt(wv, 'Go');
    await conversation(wv).getByText('Switching to code mode.', { exact: true }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    await until('the pickers to follow the agent', async () =>
      (await mode.inputValue()) === 'code' && (await model.inputValue()) === 'fake-fast' && !(await readOnly.isChecked()));
    await shot('modes');
  });

  it('completes / commands and sends @ mentions as resource links', async () => {
    await startSession(page(), wv, 'Fake (commands)');
    const box = promptBox(wv);
    await box.click();
    await box.pressSequentially('/');
    const suggestions = wv.getByRole('listbox', { name: 'Suggestions' });
    await suggestions.waitFor({ timeout: 10000 });
    const offered = await suggestions.getByRole('option').allInnerTexts();
    assert.deepEqual(offered.map(o => o.split(/\s/)[0]), ['/review', '/web', '/compact', '/init']);
    await box.pressSequentially('com');
    await suggestions.getByRole('option', { name: /^\/compact\b/ }).click();
    assert.equal(await box.inputValue(), '/compact ');
    await box.press('Enter');
    await conversation(wv).getByText('text: "/compact "', { exact: false }).waitFor({ timeout: 20000 });
    await turnEnded(wv);

    await box.pressSequentially('Look at @greet');
    await suggestions.getByRole('option', { name: 'src/greet.js' }).click({ timeout: 15000 });
    assert.equal(await box.inputValue(), 'Look at @src/greet.js ');
    await wv.getByRole('listitem').filter({ hasText: 'src/greet.js' }).first().waitFor({ timeout: 5000 });
    await box.pressSequentially('please');
    await box.press('Enter');
    const uri = `file://${path.join(e2e.workspace, 'src', 'greet.js')}`;
    await conversation(wv).getByText(`resource_link: ${uri}`, { exact: false }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    const prompt = received('session/prompt').at(-1).params.prompt;
    assert.deepEqual(prompt.find(b => b.type === 'text')?.text, 'Look at @src/greet.js please');
    const link = prompt.find(b => b.type === 'resource_link');
    assert.equal(link?.uri, uri, JSON.stringify(prompt));
    await shot('commands-and-mentions');
  });

  it('restores the files a turn changed to before its message', async () => {
    const file = path.join(e2e.workspace, 'restore-me.txt');
    fs.writeFileSync(file, 'before the agent\n');
    await startSession(page(), wv, 'Fake (test panel-restore)');
    await sendPrompt(wv, 'changed by the agent');
    await conversation(wv).getByText('Wrote restore-me.txt.', { exact: true }).waitFor({ timeout: 20000 });
    await turnEnded(wv);
    await until('the agent’s write', () => fs.readFileSync(file, 'utf8') === 'changed by the agent');
    const message = wv.locator('.entry.user').last();
    await message.hover();
    await message.getByRole('button', { name: 'Restore files to before this message', exact: true }).click();
    const dialog = page().getByRole('dialog').filter({ hasText: 'Restore 1 file to before this message?' });
    await dialog.waitFor({ timeout: 15000 });
    assert.match(await dialog.innerText(), /restore-me\.txt/, 'the confirmation lists the file');
    await shot('restore-confirmation');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await until('the file to be restored', () => fs.readFileSync(file, 'utf8') === 'before the agent\n');
  });

  it('Stop cancels a running turn', async () => {
    await startSession(page(), wv, 'Fake (test panel-stop)');
    await sendPrompt(wv, 'Take your time');
    const card = toolCard(wv, 'Long search');
    await card.waitFor({ timeout: 20000 });
    assert.equal((await card.locator('.tool-status').innerText()).trim(), 'Running');
    const cancels = received('session/cancel').length;
    await button(wv, 'Stop').click();
    await conversation(wv).getByText('Stopped: the turn was cancelled.', { exact: true }).last().waitFor({ timeout: 15000 });
    await turnEnded(wv);
    assert.equal((await card.locator('.tool-status').innerText()).trim(), 'Cancelled');
    assert.equal(received('session/cancel').length, cancels + 1, 'the agent got session/cancel');
    await shot('stopped');
  });

  it('a message sent while the agent works is queued above the prompt, then sent when the turn ends', async () => {
    await startSession(page(), wv, 'Fake (test queue-slow)');
    const prompts = received('session/prompt').length;
    await sendPrompt(wv, 'first');
    await wv.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 10000 });
    const box = promptBox(wv);
    await box.fill('second');
    await box.press('Enter');
    const queued = wv.getByRole('region', { name: 'Queued message' });
    await queued.first().waitFor({ timeout: 10000 });
    assert.match(await queued.first().innerText(), /second/);
    assert.equal(received('session/prompt').length, prompts + 1, 'queued, not sent while the turn runs');
    await shot('queued');
    await until('the queued message to be sent', () => received('session/prompt').length === prompts + 2, 30000);
    await until('the queue to empty', async () => (await queued.count()) === 0);
    await turnEnded(wv);
    const texts = received('session/prompt').slice(prompts).map(m => m.params.prompt.find(b => b.type === 'text')?.text);
    assert.deepEqual(texts, ['first', 'second'], 'sent in order, one turn each');
    await shot('queue-sent');
  });

  it('Edit message on an earlier message continues as Branch 2 of 2; Previous branch shows the old turns', async () => {
    await startSession(page(), wv, 'Fake (test echo)');
    await sendPrompt(wv, 'one');
    await turnEnded(wv);
    await sendPrompt(wv, 'two');
    await turnEnded(wv);
    const sessions = received('session/new').length;
    const message = wv.locator('.entry.user', { hasText: 'two' }).last();
    await message.hover();
    await message.getByRole('button', { name: 'Edit message', exact: true }).click();
    const box = wv.getByRole('textbox', { name: 'Edited message' });
    await box.fill('two, edited');
    await box.press('Enter');
    const control = wv.getByRole('group', { name: 'Branch 2 of 2 of this message' });
    await control.waitFor({ timeout: 20000 });
    await turnEnded(wv);
    assert.equal(received('session/new').length, sessions + 1, 'the edit continues in a new session of the agent');
    const users = async () => (await wv.locator('.entry.user .user-text').allInnerTexts()).map(t => t.trim());
    assert.deepEqual((await users()).slice(-2), ['one', 'two, edited']);
    await shot('branch-2-of-2');
    await control.getByRole('button', { name: 'Previous branch', exact: true }).click();
    const first = wv.getByRole('group', { name: 'Branch 1 of 2 of this message' });
    await first.waitFor({ timeout: 15000 });
    assert.deepEqual((await users()).slice(-2), ['one', 'two'], 'the old branch, as it was');
    assert.equal(await first.getByRole('button', { name: 'Previous branch', exact: true }).getAttribute('aria-disabled'), 'true', 'nothing before the first');
    await first.getByRole('button', { name: 'Next branch', exact: true }).click();
    await control.waitFor({ timeout: 15000 });
    assert.deepEqual((await users()).slice(-2), ['one', 'two, edited']);
  });
});
