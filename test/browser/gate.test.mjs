// The panel's gate: "Sign in to <agent>" with the agent's methods as buttons, an untrusted workspace and why nothing
// starts, the first-run list of agents found and not found. Each button posts exactly its intent.
import { strict as assert } from 'node:assert';
import { chatHost, posted, send } from './support/chatPage.mjs';
import { snapshot } from './support/fixtures.mjs';

const gate = (g) => ({ type: 'gate', gate: g });

describe('chat webview: gate', function () {
  let chat;
  beforeEach(async function () {
    chat = await (await chatHost()).open();
    await send(chat.page, snapshot());
  });
  afterEach(async function () {
    assert.deepEqual(chat.errors, [], 'no page errors');
    await chat.close();
  });
  const region = (name) => chat.page.getByRole('region', { name, exact: true });

  it('asks to sign in with the methods as buttons, the agent\'s words as text, and a way out', async function () {
    await send(chat.page, gate({
      kind: 'signIn', agentName: 'Codex', message: 'Authentication required <b>now</b>\u202e',
      choices: [{ id: 'chatgpt', label: 'Log in with ChatGPT', description: 'Opens a browser' }, { id: 'api-key', label: 'Use OPENAI_API_KEY' }],
    }));
    const r = region('Sign in to Codex');
    await r.waitFor();
    assert.equal((await r.getByRole('heading').innerText()).trim(), 'Sign in to Codex');
    const text = await r.innerText();
    assert.ok(text.includes('Authentication required <b>now</b>'), 'markup in the message is text');
    assert.ok(text.includes('⟨U+202E'), `a bidi control is shown, not applied: ${text}`);
    assert.equal(await r.locator('b').count(), 0);
    assert.equal(await r.getByRole('button', { name: 'Log in with ChatGPT' }).getAttribute('title'), 'Opens a browser');
    await r.getByRole('button', { name: 'Use OPENAI_API_KEY' }).click();
    await r.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await posted(chat.page, 'signIn'), [{ type: 'signIn', choiceId: 'api-key' }, { type: 'signIn', choiceId: null }]);
    await send(chat.page, gate(null));
    assert.equal(await chat.page.locator('.gate').isVisible(), false, 'gone once answered');
  });

  it('says why nothing starts in an untrusted workspace and opens the trust editor', async function () {
    await send(chat.page, gate({ kind: 'untrusted', message: 'Agents do not start in an untrusted workspace.' }));
    const r = region('This workspace is not trusted');
    assert.ok((await r.innerText()).includes('Agents do not start in an untrusted workspace.'));
    await r.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    assert.deepEqual(await posted(chat.page, 'manageTrust'), [{ type: 'manageTrust' }]);
  });

  const startError = (extra = {}) => gate({
    kind: 'startError', id: 'f7', title: 'Fake Broken could not start a session', agentName: 'Fake Broken',
    message: 'session/new failed (error -32603).', agentMessage: '<img src=x onerror=alert(1)> no <b>model</b>',
    stderr: ['fake-agent: \u001b[31merror:\u001b[0m model unavailable', 'fake-agent: <script>alert(2)</script>'],
    actions: ['retry', 'showLog', 'editSettings', 'dismiss'], ...extra,
  });

  it("a start error: the agent's name, our message announced, its own words and stderr as text, and what to do", async function () {
    await send(chat.page, snapshot({ head: { status: 'none', agentName: undefined, sessionKey: undefined, sessions: [] } }));
    const dialogs = [];
    chat.page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await send(chat.page, startError());
    const r = region('Fake Broken could not start a session');
    await r.waitFor();
    assert.equal((await r.getByRole('heading').innerText()).trim(), 'Fake Broken could not start a session');
    assert.equal((await r.getByRole('alert').innerText()).split('\n')[0].trim(), 'session/new failed (error -32603).', 'our words are announced');
    const said = r.locator('figure', { hasText: 'Fake Broken said:' });
    assert.equal((await said.locator('blockquote').innerText()).trim(), '<img src=x onerror=alert(1)> no <b>model</b>', "the agent's words, as text");
    assert.equal(await r.locator('img, b, script').count(), 0, 'no markup from the agent');
    const stderr = r.getByLabel('The last lines Fake Broken wrote to stderr');
    assert.equal(await stderr.innerText(), 'fake-agent: error: model unavailable\nfake-agent: <script>alert(2)</script>', 'escapes removed, markup as text');
    assert.equal(await chat.page.locator('.welcome').isVisible(), false, 'it stands where the conversation would be, not beside "No agent session yet"');
    const actions = r.getByRole('group', { name: 'What to do' }).getByRole('button');
    assert.deepEqual(await actions.allInnerTexts(), ['Retry', 'Show Log', 'Edit Agent Settings', 'Dismiss']);
    await posted(chat.page, undefined, { clear: true });
    for (const name of ['Retry', 'Show Log', 'Edit Agent Settings', 'Dismiss']) {
      const button = r.getByRole('button', { name, exact: true });
      await button.focus();
      assert.equal(await button.evaluate((b) => b === document.activeElement), true, `${name} takes the focus`);
      await chat.page.keyboard.press('Enter');
    }
    assert.deepEqual(await posted(chat.page, 'startError'), ['retry', 'showLog', 'editSettings', 'dismiss'].map((action) => ({ type: 'startError', id: 'f7', action })));
    assert.deepEqual(dialogs, [], 'nothing from the agent ran');
    await send(chat.page, gate(null));
    assert.equal(await chat.page.locator('.gate').isVisible(), false);
    assert.equal(await chat.page.locator('.welcome').isVisible(), true, 'the empty state is back once it is gone');
  });

  it('a start error from signing in offers Sign in first; one with no stderr or words of its own shows only ours', async function () {
    await send(chat.page, startError({ agentMessage: undefined, stderr: [], message: 'Signing in to Fake Broken was cancelled.', actions: ['signIn', 'retry', 'showLog', 'editSettings', 'dismiss'] }));
    const r = region('Fake Broken could not start a session');
    assert.equal(await r.locator('figure').count(), 0);
    assert.equal((await r.getByRole('alert').innerText()).trim(), 'Signing in to Fake Broken was cancelled.');
    const first = r.getByRole('button').first();
    assert.equal(await first.getAttribute('aria-label'), 'Sign in to Fake Broken');
    assert.equal((await first.innerText()).trim(), 'Sign in');
    await r.getByRole('button', { name: 'Sign in to Fake Broken' }).click();
    assert.deepEqual(await posted(chat.page, 'startError'), [{ type: 'startError', id: 'f7', action: 'signIn' }]);
  });

  it('lists agents found (Start) and not found (Install, Update, Docs), icons as masks only, filtered by typing', async function () {
    const dialogs = [];
    chat.page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><script>alert(1)</script><rect width="16" height="16" fill="currentColor"/></svg>').toString('base64')}`;
    await send(chat.page, gate({
      kind: 'chooseAgent',
      agents: [
        { id: 'fake', name: 'Fake', installed: true, detail: 'From your settings (howdah.agents): runs node', commandLine: '/usr/bin/node /long/path/agent.js', canInstall: false, hasDocs: false },
        { id: 'codex', name: 'Codex CLI', installed: true, detail: "Installed 1.0.0 in Howdah's storage (from the ACP registry)", commandLine: '/home/u/.storage/agents/codex/1.0.0/codex-acp --long-flag', version: '1.0.0', distribution: 'binary', canInstall: false, updateTo: '1.1.0', hasDocs: false, signIn: 'signed-out', canSignIn: true },
        { id: 'gemini', name: 'Gemini CLI', installed: false, detail: 'Not installed', description: 'Google’s CLI', version: '0.27.3', license: 'Apache-2.0', distribution: 'npm', icon: svg, canInstall: true, hasDocs: true },
      ],
    }));
    const r = region('Choose an agent');
    assert.equal(await r.getByRole('listitem').count(), 3);
    assert.equal(await r.getByRole('button', { name: 'Start Gemini CLI' }).count(), 0, 'a missing agent cannot be started');
    assert.ok((await r.getByRole('listitem').nth(2).innerText()).includes('0.27.3 · Apache-2.0 · npm'));
    assert.equal(await r.locator('img, svg image, iframe, object').count(), 0, 'the icon is no element of its own');
    assert.match(await r.locator('.gate-agent-icon').nth(2).evaluate((e) => getComputedStyle(e).maskImage || getComputedStyle(e).webkitMaskImage), /^url\("data:image\/svg\+xml;base64,/);
    await r.getByRole('button', { name: 'Start Fake' }).click();
    assert.ok((await r.getByRole('listitem').nth(1).innerText()).includes('binary · not signed in'));
    // The command line only on hover and in a closed fold; the row says where the agent comes from.
    const fake = r.getByRole('listitem').nth(0);
    assert.equal(await fake.locator('.gate-agent-detail').innerText(), 'From your settings (howdah.agents): runs node');
    assert.equal(await fake.locator('.gate-agent-detail').getAttribute('title'), 'Command line: /usr/bin/node /long/path/agent.js');
    const fold = fake.locator('details.gate-agent-command');
    assert.equal(await fold.evaluate((d) => d.open), false);
    assert.equal(await fold.locator('code').isVisible(), false, 'folded');
    await fold.locator('summary').click();
    assert.equal(await fold.locator('code').innerText(), '/usr/bin/node /long/path/agent.js');
    assert.equal(await r.getByRole('listitem').nth(2).locator('details.gate-agent-command').count(), 0, 'none for an agent that cannot start');
    assert.equal(await r.getByRole('button', { name: 'Sign in to Fake' }).count(), 0, 'no Sign in where the agent cannot say');
    await r.getByRole('button', { name: 'Sign in to Codex CLI' }).click();
    await r.getByRole('button', { name: 'Update to 1.1.0' }).click();
    await r.getByRole('button', { name: 'Install Gemini CLI' }).click();
    await r.getByRole('button', { name: 'Gemini CLI docs' }).click();
    assert.deepEqual(
      (await posted(chat.page)).filter((m) => ['chooseAgent', 'installAgent', 'agentDocs', 'signInAgent'].includes(m.type)),
      [{ type: 'chooseAgent', agentId: 'fake' }, { type: 'signInAgent', agentId: 'codex' }, { type: 'installAgent', agentId: 'codex' }, { type: 'installAgent', agentId: 'gemini' }, { type: 'agentDocs', agentId: 'gemini' }],
    );
    await r.getByRole('searchbox', { name: 'Filter agents' }).fill('google');
    assert.deepEqual(await r.getByRole('listitem').evaluateAll((items) => items.filter((i) => !i.hidden).map((i) => i.querySelector('.gate-agent-name').textContent)), ['Gemini CLI']);
    assert.deepEqual(dialogs, [], 'nothing in the icon ran');
  });
});
