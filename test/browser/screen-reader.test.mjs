// Issue 19: screen readers and the keyboard. Streaming text is announced politely once a message is complete (never
// per chunk); a permission prompt and a question are announced assertively; the conversation is walked message by
// message with Alt+↑/↓ (Home/End), each stop with a visible focus ring; every control is reached with Tab and shows
// its focus; the panel's help lists every shortcut, as the README does.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatPagePerTest, REPO, send } from './support/chatPage.mjs';
import { agent, patch, permission, snapshot, tool, user } from './support/fixtures.mjs';
import { STATES } from './support/states.mjs';
import { applyTheme, THEMES } from './support/themes.mjs';

const live = (page, politeness) => page.evaluate((p) => document.querySelector(`[aria-live="${p}"].announcer`)?.textContent ?? null, politeness);
const settled = (page) => page.waitForTimeout(120); // the announcer writes 50 ms after clearing (so a repeat is heard)

/** The focused element, described: its tag and classes, and its entry's text when it is one. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return { tag: el?.tagName, entry: el?.matches('.entries > .entry') ? el.textContent.trim() : undefined, name: el?.getAttribute('aria-label') ?? undefined };
});

/** Whether the focused element draws a focus ring: an outline of the theme's focus colour. */
const focusRing = (page) => page.evaluate(() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const probe = document.createElement('div');
  probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--vscode-focusBorder');
  document.body.append(probe);
  const focus = getComputedStyle(probe).color;
  probe.remove();
  return { drawn: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0, colour: style.outlineColor === focus, what: el.outerHTML.slice(0, 80) };
});

describe('chat webview: screen readers and keyboard', function () {
  const chat = chatPagePerTest();

  it('announces an answer politely once it is complete, never chunk by chunk', async function () {
    const snap = snapshot({ entries: [user(1, 'Explain')], turn: 'running' });
    await send(chat.page, snap);
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: agent(2, 'It **trims**') }));
    for (const [offset, delta] of [['It **trims**'.length, ' the name'], ['It **trims** the name'.length, ' and falls back.']]) {
      await send(chat.page, patch(snap, { op: 'append', index: 1, offset, delta }));
      await settled(chat.page);
      assert.equal(await live(chat.page, 'polite'), '', 'nothing is read while the answer streams');
    }
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    await settled(chat.page);
    assert.equal(await live(chat.page, 'polite'), 'Agent: It trims the name and falls back.');
    assert.equal(await live(chat.page, 'assertive'), '', 'an answer never interrupts');
  });

  it('announces the beginning of a long answer, read from the groups it was rendered in', async function () {
    const snap = snapshot({ entries: [user(1, 'Explain'), agent(2, '')], turn: 'running' });
    await send(chat.page, snap);
    // a short first block rendered on its own, then a burst: the beginning is spread over that group and the
    // placeholders after it
    const start = 'Short **start**.\n\nParagraph 0 says something about the name.\n';
    const burst = '\n' + Array.from({ length: 3000 }, (_, i) => `Paragraph ${i + 1} says something about the name.\n\n`).join('');
    await send(chat.page, patch(snap, { op: 'append', index: 1, offset: 0, delta: start }));
    await settled(chat.page);
    await send(chat.page, patch(snap, { op: 'append', index: 1, offset: start.length, delta: burst }));
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    await settled(chat.page);
    const said = await live(chat.page, 'polite');
    assert.ok(said.startsWith('Agent: Short start . Paragraph 0 says something about the name. Paragraph 1 says'), said);
    assert.ok(said.endsWith('…') && said.length === 501, `capped: ${said.length}`);
  });

  it('clears an announcement once said, so the page’s find sees only the transcript’s text', async function () {
    const snap = snapshot({ entries: [user(1, 'Explain'), agent(2, 'It trims the name and falls back.')], turn: 'running' });
    await send(chat.page, snap);
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    await settled(chat.page);
    assert.equal(await live(chat.page, 'polite'), 'Agent: It trims the name and falls back.');
    await chat.page.waitForFunction(() => document.querySelector('[aria-live="polite"].announcer').textContent === '', undefined, { timeout: 10000 });
    // VS Code's find in a webview is the browser's: one match, in the transcript, found again from itself
    const finds = await chat.page.evaluate(() => {
      getSelection().collapse(document.body, 0);
      const where = [];
      for (let i = 0; i < 3 && window.find('trims the name', false, false, true); i++) where.push(getSelection().anchorNode.parentElement.closest('.entry, .announcer').className);
      return where;
    });
    assert.deepEqual(finds.map((c) => c.split(' ').includes('agent')), [true, true, true], finds.join(' | '));
  });

  it('announces a permission prompt assertively, even with the focus outside the panel’s prompt', async function () {
    const snap = snapshot({ entries: [agent(1, 'Let me run it.')], turn: 'running' });
    await send(chat.page, snap);
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: tool(2, { kind: 'execute', title: 'Run make', command: 'make all', status: 'pending', permission: permission() }) }));
    await settled(chat.page);
    assert.equal(await live(chat.page, 'assertive'), 'The agent asks for permission: Run make. Options: Allow once, Always allow, Reject.');
    // The same prompt updated (its output grew) is not announced again.
    await chat.page.evaluate(() => { document.querySelector('[aria-live="assertive"]').textContent = ''; });
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: tool(2, { kind: 'execute', title: 'Run make', command: 'make all', status: 'pending', permission: permission(), rawInput: '{}' }) }));
    await settled(chat.page);
    assert.equal(await live(chat.page, 'assertive'), '');
  });

  it('announces an agent’s question assertively', async function () {
    const snap = snapshot({ entries: [agent(1, 'Deploying.')], turn: 'running' });
    await send(chat.page, snap);
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: { kind: 'elicitation', id: 2, elicitation: { key: 2, mode: 'url', message: 'Sign in to continue', status: 'waiting', url: 'https://example.com/login' } } }));
    await settled(chat.page);
    assert.equal(await live(chat.page, 'assertive'), 'The agent asks you: Sign in to continue');
  });

  it('announces a question or a sign-in in the start area assertively, once', async function () {
    await STATES['a question while starting'](chat.page);
    await settled(chat.page);
    assert.equal(await live(chat.page, 'assertive'), 'Fake asks you: Which workspace?');
    await STATES['sign-in'](chat.page);
    await settled(chat.page);
    assert.equal(await live(chat.page, 'assertive'), 'Sign in to Codex: Authentication required');
  });

  it('walks the conversation by message with Alt+↑/↓, Alt+Home/End, and Escape back to the prompt, each stop with a focus ring', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'First question'), agent(2, 'First answer'), user(3, 'Second question'), agent(4, 'Second answer')] }));
    await applyTheme(chat.page, THEMES[1]);
    const box = chat.page.getByRole('textbox', { name: 'Prompt' });
    await box.focus();
    await chat.page.keyboard.type('draft');
    await chat.page.keyboard.press('Home');
    await chat.page.keyboard.press('Alt+ArrowUp');
    assert.match((await focused(chat.page)).entry, /Second answer/, 'from the prompt: the last message');
    assert.deepEqual(await focusRing(chat.page).then(({ drawn, colour }) => ({ drawn, colour })), { drawn: true, colour: true });
    await chat.page.keyboard.press('Alt+ArrowUp');
    assert.match((await focused(chat.page)).entry, /Second question/);
    await chat.page.keyboard.press('Alt+Home');
    assert.match((await focused(chat.page)).entry, /First question/);
    await chat.page.keyboard.press('Alt+ArrowDown');
    assert.match((await focused(chat.page)).entry, /First answer/);
    await chat.page.keyboard.press('Alt+End');
    assert.match((await focused(chat.page)).entry, /Second answer/);
    await chat.page.keyboard.press('Alt+ArrowDown');
    assert.equal((await focused(chat.page)).tag, 'TEXTAREA', 'past the last message: the prompt');
    assert.equal(await box.inputValue(), 'draft', 'Alt+↑ in the prompt did not walk the history');
    await chat.page.keyboard.press('Alt+ArrowUp');
    await chat.page.keyboard.press('Escape');
    assert.equal((await focused(chat.page)).tag, 'TEXTAREA');
  });

  it('goes from the first message shown to "Show earlier" in a long conversation', async function () {
    await STATES['long transcript'](chat.page);
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await chat.page.keyboard.press('Alt+ArrowUp');
    await chat.page.keyboard.press('Alt+Home');
    assert.match((await focused(chat.page)).entry, /(Question|Answer) \d+$/);
    await chat.page.keyboard.press('Alt+ArrowUp');
    assert.match((await focused(chat.page)).name, /^Show earlier entries/);
  });

  it('reaches every control with Tab, each with a visible focus ring in every theme', async function () {
    await STATES['every entry kind'](chat.page);
    const controls = await chat.page.evaluate(() => {
      const all = [...document.querySelectorAll('button, select, textarea, input, summary, a[href], [tabindex="0"]')];
      all.forEach((el, i) => el.setAttribute('data-control', String(i)));
      return all.filter((el) => el.getClientRects().length > 0 && !el.disabled && !el.closest('[hidden], [inert]')).map((el) => el.getAttribute('data-control'));
    });
    assert.ok(controls.length > 30, `many controls on screen (${controls.length})`);
    for (const theme of THEMES) {
      await applyTheme(chat.page, theme);
      await chat.page.evaluate(() => document.activeElement?.blur());
      const reached = new Set();
      const noRing = [];
      for (let i = 0; i < controls.length + 10; i++) {
        await chat.page.keyboard.press('Tab');
        const id = await chat.page.evaluate(() => document.activeElement?.getAttribute('data-control'));
        if (id === null || id === undefined) continue;
        if (reached.has(id)) break;
        reached.add(id);
        const ring = await focusRing(chat.page);
        if (!ring.drawn || !ring.colour) noRing.push(ring.what);
      }
      assert.deepEqual(controls.filter((id) => !reached.has(id)), [], `${theme.name}: every control is reached with Tab`);
      assert.deepEqual(noRing, [], `${theme.name}: every control shows a focus ring in the theme's focus colour`);
    }
  });

  it('lists every shortcut in the panel’s help, as the README does, and closes it with Escape', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'hi')] }));
    const button = chat.page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.focus();
    await chat.page.keyboard.press('Enter');
    const help = chat.page.getByRole('region', { name: 'Keyboard shortcuts', exact: true });
    await help.waitFor();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    const inPanel = await help.locator('dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent.trim(), dt.nextElementSibling.textContent.trim()]));
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Keyboard shortcuts'), readme.indexOf('\n## ', readme.indexOf('## Keyboard shortcuts') + 5));
    const inReadme = [...table.matchAll(/^\| (.+?) \| (.+?) \|$/gm)].slice(1).map((m) => [m[1].replace(/`/g, ''), m[2]]);
    const plain = (s) => s.replace(/[’']/g, "'");
    assert.deepEqual(inPanel.map(([k, w]) => [k, plain(w)]), inReadme.map(([k, w]) => [k, plain(w)]));
    for (const key of ['Alt+↑ / Alt+↓', 'Alt+Home / Alt+End']) assert.ok(inPanel.some(([k]) => k === key), key);
    await chat.page.keyboard.press('Escape');
    assert.equal(await help.isHidden(), true);
    assert.equal(await chat.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Keyboard shortcuts');
  });
});
