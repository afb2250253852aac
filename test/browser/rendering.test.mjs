// Rendering of every entry kind, header and plan, patches and resync, in headless Chromium with the fake host.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { agent, error, header, notice, patch, permission, snapshot, thought, tool, turnEnd, unknown, user } from './support/fixtures.mjs';

describe('chat webview: rendering', function () {
  const chat = chatPagePerTest();
  const text = (selector) => chat.page.locator(selector).allInnerTexts();

  it('starts empty, with a New session button, and asks for a snapshot', async function () {
    await send(chat.page, snapshot({ head: { status: 'none', agentName: undefined, sessions: [] } }));
    assert.equal((await posted(chat.page, 'ready')).length, 1);
    await chat.page.getByRole('button', { name: 'New session' }).first().click();
    assert.equal((await posted(chat.page, 'newSession')).length, 1);
  });

  it('shows user and agent messages, Markdown and code blocks with language and Copy', async function () {
    const md = '# Title\n\nSome **bold** text and `code`.\n\n```ts\nconst x = 1;\n```\n\n- one\n- two\n';
    await send(chat.page, snapshot({ entries: [user(1, 'hello <b>there</b>', [{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }]), agent(2, md)] }));
    assert.deepEqual(await text('.entry.user .user-text'), ['hello <b>there</b>']);
    assert.equal(await chat.page.locator('.entry.agent h1').innerText(), 'Title');
    assert.equal(await chat.page.locator('.entry.agent strong').innerText(), 'bold');
    assert.equal(await chat.page.locator('.code-block .code-lang').innerText(), 'ts');
    assert.equal(await chat.page.locator('.entry.agent li').count(), 2);
    await chat.page.getByRole('button', { name: 'Copy code' }).click();
    assert.deepEqual(await posted(chat.page, 'copy'), [{ type: 'copy', text: 'const x = 1;\n' }]);
    await chat.page.locator('.entry.user .link-button').click();
    assert.deepEqual(await posted(chat.page, 'openLink'), [{ type: 'openLink', href: 'file:///w/a.ts' }]);
  });

  it('streams appended text and re-renders only the open block', async function () {
    const snap = snapshot({ entries: [agent(1, 'First paragraph.\n\n')], turn: 'running' });
    await send(chat.page, snap);
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 18, delta: 'Second ' }));
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 25, delta: 'paragraph.\n\nThird' }));
    assert.deepEqual(await text('.entry.agent p'), ['First paragraph.', 'Second paragraph.', 'Third']);
    assert.equal(await chat.page.locator('.entry.agent .md-blocks').count(), 1, 'completed blocks are kept as DOM');
    // The completed message is announced once the turn ends, not per chunk.
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }), patch(snap, { op: 'entry', index: 1, entry: turnEnd(2, 'end_turn') }));
    await chat.page.waitForFunction(() => document.querySelector('.announcer')?.textContent?.includes('Third'));
  });

  it('takes appended text the host posted as UTF-8 bytes (a long delta) as it takes a string', async function () {
    const snap = snapshot({ entries: [agent(1, 'Start.\n\n')], turn: 'running' });
    await send(chat.page, snap);
    await chat.page.evaluate((epoch) => {
      const delta = new TextEncoder().encode('Bytes: é 😀 中 "quoted".\n\n');
      window.postMessage({ type: 'patch', epoch, ops: [{ op: 'append', index: 0, offset: 8, delta }] }, '*');
    }, snap.epoch);
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 8 + 25, delta: 'Then a string.' }));
    assert.deepEqual(await text('.entry.agent p'), ['Start.', 'Bytes: é 😀 中 "quoted".', 'Then a string.']);
    assert.equal((await posted(chat.page, 'ready')).length, 1, 'the offsets matched: no snapshot asked for again');
  });

  it('draws the end of a turn in the next frame, even while a running answer waits for its pace', async function () {
    const snap = snapshot({ entries: [agent(1, 'Start.\n\n')], turn: 'running' });
    await send(chat.page, snap);
    // A running answer renders at most once per streamFrameMs: a minute here, so only the turn's end can draw it.
    await chat.page.evaluate(() => window.__howdah.configure({ streamFrameMs: 60_000 }));
    const post = (message) => chat.page.evaluate((m) => window.postMessage(m, '*'), message);
    await post(patch(snap, { op: 'append', index: 0, offset: 8, delta: 'The last words.' }));
    await chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(await text('.entry.agent p'), ['Start.'], 'the running answer waits for its pace');
    await post(patch(snap, { op: 'turn', turn: 'idle' }, { op: 'entry', index: 1, entry: turnEnd(2, 'end_turn') }));
    await chat.page.waitForFunction(() => document.querySelector('.entry.agent')?.textContent?.includes('The last words.'), undefined, { timeout: 5_000 });
  });

  it('renders a streaming answer in a task of its own and scrolls to its end in the next frame', async function () {
    const paragraphs = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} of an answer taller than the view.\n\n`).join('');
    const snap = snapshot({ entries: [agent(1, paragraphs)], turn: 'running' });
    await send(chat.page, snap);
    await chat.page.evaluate(() => window.__howdah.configure({ streamFrameMs: 0 }));
    const seen = await chat.page.evaluate(({ epoch, offset }) => new Promise((resolve) => {
      const view = document.querySelector('section.transcript');
      const atEnd = () => view.scrollHeight - view.scrollTop - view.clientHeight < 2;
      // (a mutation's callback runs at the end of the task that made it: the render's)
      new MutationObserver((records, observer) => {
        if (!records.some((r) => [...r.addedNodes].some((n) => n.textContent?.includes('The newest words.')))) return;
        observer.disconnect();
        const renderedAtEnd = atEnd();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ renderedAtEnd, thenAtEnd: atEnd() })));
      }).observe(view, { subtree: true, childList: true });
      window.postMessage({ type: 'patch', epoch, ops: [{ op: 'append', index: 0, offset, delta: 'The newest words.\n\nAnd more.' }] }, '*');
    }), { epoch: snap.epoch, offset: paragraphs.length });
    // The render (Markdown, DOM) and the layout of what it added run as two tasks, not as one long one: the render
    // does not scroll (which would lay out in its task), the next frame scrolls to the new end.
    assert.deepEqual(seen, { renderedAtEnd: false, thenAtEnd: true });
  });

  it('marks a message the agent refused as out of its context, and says so at the turn’s end', async function () {
    const snap = snapshot({ entries: [user(1, 'do the thing'), agent(2, 'No.')], turn: 'running' });
    await send(chat.page, snap);
    assert.equal(await chat.page.locator('.entry.user.refused').count(), 0);
    await send(chat.page, patch(snap, { op: 'entry', index: 0, entry: { ...user(1, 'do the thing'), refused: true } }), patch(snap, { op: 'entry', index: 2, entry: turnEnd(3, 'refusal') }));
    assert.deepEqual((await text('.entry.user.refused .refused-note')).map((t) => t.trim()), ['The agent refused this message: it is not part of the agent’s context.']);
    assert.deepEqual(await text('.entry.user .user-text'), ['do the thing'], 'the words stay readable');
    assert.match((await text('.entry.turn-end'))[0], /not part of its context/);
  });

  it('shows the turn’s token counts on its end', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'hi'), agent(2, 'hello'), { ...turnEnd(3, 'end_turn'), tokens: { input: 12345, output: 67, thought: 8 } }, turnEnd(4, 'end_turn')] }));
    assert.deepEqual(await text('.turn-tokens'), ['12,345 tokens in · 67 out (8 thinking)']);
    assert.equal(await chat.page.locator('.entry.turn-end.quiet').count(), 1, 'a turn end without counts stays quiet');
  });

  it('plays audio content with native controls from a data URI; an unplayable type stays a chip', async function () {
    await send(chat.page, snapshot({ entries: [agent(1, '', [{ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' }, { type: 'audio', mimeType: 'text/html', data: 'PGI+' }])] }));
    const audio = chat.page.locator('audio.content-audio');
    assert.equal(await audio.count(), 1);
    assert.equal(await audio.getAttribute('src'), 'data:audio/wav;base64,UklGRg==');
    assert.equal(await audio.evaluate((a) => a.controls), true);
    assert.match(await chat.page.locator('.entry.agent .chip').innerText(), /audio \(text\/html\)/);
  });

  it('asks for a snapshot when a patch does not fit', async function () {
    const snap = snapshot({ entries: [agent(1, 'abc')] });
    await send(chat.page, snap);
    await posted(chat.page, undefined, { clear: true });
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 99, delta: 'x' }));
    assert.equal((await posted(chat.page, 'ready')).length, 1);
    // Patches of an older snapshot are ignored.
    await send(chat.page, snapshot({ entries: [agent(1, 'new')] }), patch(snap, { op: 'append', index: 0, offset: 3, delta: 'x' }));
    assert.deepEqual(await text('.entry.agent p'), ['new']);
  });

  it('folds thoughts under a live Thinking… indicator', async function () {
    const snap = snapshot({ entries: [thought(1, 'pondering *deeply*')], turn: 'running' });
    await send(chat.page, snap);
    assert.match(await chat.page.locator('.thought > summary').innerText(), /Thinking…/);
    assert.equal(await chat.page.locator('.thought').evaluate((d) => d.open), false);
    assert.equal(await chat.page.locator('.thought em').count(), 0, 'a folded thought is not rendered');
    await chat.page.locator('.thought > summary').click();
    assert.equal(await chat.page.locator('.thought em').innerText(), 'deeply');
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: agent(2, 'done') }));
    assert.match(await chat.page.locator('.thought > summary').innerText(), /Thought/);
  });

  it('shows tool cards: kind, title, status, locations, diff summary, terminal tail, raw input on demand', async function () {
    const snap = snapshot({ entries: [
      tool(1, { title: 'Edit a.ts', kind: 'edit', status: 'in_progress', locations: [{ path: '/w/a.ts', line: 3 }],
        content: [{ type: 'diff', path: '/w/a.ts', added: 2, removed: 1, newFile: false }], rawInput: '{\n  "file": "a.ts"\n}' }),
      tool(2, { title: 'npm test', kind: 'execute', status: 'completed', command: 'npm test --silent',
        content: [{ type: 'terminal', terminalId: 't1', output: '\u001b[32m1 passing\u001b[0m\r\n\u001b]0;title\u0007done\n', truncated: false, exit: { code: 0, signal: null }, openable: true }] }),
      tool(3, { title: 'Fetch', kind: 'fetch', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'ENOTFOUND *x*' } }] }),
    ] });
    await send(chat.page, snap);
    assert.deepEqual(await text('.tool-status-label'), ['Running', 'Completed', 'Failed']);
    assert.equal(await chat.page.locator('.tool').first().locator('.codicon-edit').count(), 1);
    assert.equal(await chat.page.locator('.diff-added').innerText(), '+2');
    await chat.page.getByRole('button', { name: 'Open diff of a.ts' }).click();
    assert.deepEqual(await posted(chat.page, 'openDiff'), [{ type: 'openDiff', toolCallId: 'tc-1', index: 0 }]);
    await chat.page.locator('.tool-locations .link-button').click();
    assert.deepEqual(await posted(chat.page, 'openLocation'), [{ type: 'openLocation', path: '/w/a.ts', line: 3 }]);
    assert.equal(await chat.page.locator('.terminal-output').innerText(), '1 passing\ndone');
    assert.match(await chat.page.locator('.terminal-exit').innerText(), /exit code 0/);
    await chat.page.getByRole('button', { name: 'Open in terminal' }).click();
    assert.deepEqual(await posted(chat.page, 'openTerminal'), [{ type: 'openTerminal', terminalId: 't1' }]);
    assert.match(await chat.page.locator('.tool-command').innerText(), /npm test --silent/);
    assert.equal(await chat.page.locator('.raw-json').count(), 0, 'raw input is rendered only when opened');
    await chat.page.locator('details.raw > summary').first().click();
    assert.match(await chat.page.locator('.raw-json').innerText(), /"file": "a.ts"/);
    assert.equal(await chat.page.locator('.tool').nth(2).locator('em').innerText(), 'x');
    // A status change updates the card in place and keeps the open raw input open.
    await send(chat.page, patch(snap, { op: 'entry', index: 0, entry: tool(1, { title: 'Edit a.ts', kind: 'edit', status: 'completed', locations: [{ path: '/w/a.ts', line: 3 }],
      content: [{ type: 'diff', path: '/w/a.ts', added: 2, removed: 1, newFile: false }], rawInput: '{\n  "file": "a.ts"\n}' }) }));
    assert.equal(await chat.page.locator('.tool-status-label').first().innerText(), 'Completed');
    assert.equal(await chat.page.locator('details.raw').first().evaluate((d) => d.open), true);
  });

  it('shows rejected and cancelled tool calls, notices, errors with Retry, unknown updates, stop reasons', async function () {
    await send(chat.page, snapshot({ entries: [
      tool(1, { status: 'rejected', answer: { name: 'Reject', kind: 'reject_once' } }),
      tool(2, { status: 'cancelled' }),
      notice(3, 'Heads up', 'warning', 'details here'),
      unknown(4, 'future_update', '{ "sessionUpdate": "future_update" }'),
      error(5, 'The agent crashed', true, 'stderr tail'),
      turnEnd(6, 'max_tokens'),
      turnEnd(7, 'end_turn'),
    ] }));
    assert.deepEqual(await text('.tool-status-label'), ['Rejected', 'Cancelled']);
    assert.match(await chat.page.locator('.tool-answer').innerText(), /You chose .*Reject/);
    assert.match(await chat.page.locator('.notice').innerText(), /Heads up/);
    assert.match(await chat.page.locator('.entry.unknown').innerText(), /future_update/);
    await chat.page.getByRole('button', { name: 'Retry' }).click();
    assert.equal((await posted(chat.page, 'retry')).length, 1);
    assert.deepEqual((await text('.entry.turn-end:not(.quiet)')).map((t) => t.trim()), ['The agent stopped: it reached its token limit.']);
  });

  it('renders the header: agent, version, title, pickers, context meter', async function () {
    const head = {
      title: 'Fix the tests',
      modes: { current: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code' }] },
      configOptions: [
        { type: 'select', id: 'model', name: 'Model', category: 'model', current: 'm1', groups: [{ options: [{ value: 'm1', name: 'Model One' }, { value: 'm2', name: 'Model Two' }] }] },
        { type: 'boolean', id: 'fast', name: 'Fast', current: false },
      ],
      usage: { used: 50_000, size: 200_000, cost: { amount: 0.12, currency: 'USD' } },
    };
    const snap = snapshot({ head });
    await send(chat.page, snap);
    assert.match(await chat.page.locator('.identity').innerText(), /Fake Agent 1\.2\.3 · Fix the tests/);
    await chat.page.getByLabel('Mode', { exact: true }).selectOption('code');
    await chat.page.getByLabel('Model', { exact: true }).selectOption('m2');
    await chat.page.getByLabel('Fast').check();
    assert.deepEqual(await posted(chat.page, 'setMode'), [{ type: 'setMode', modeId: 'code' }]);
    assert.deepEqual(await posted(chat.page, 'setConfigOption'), [
      { type: 'setConfigOption', configId: 'model', value: 'm2' },
      { type: 'setConfigOption', configId: 'fast', value: true },
    ]);
    assert.match(await chat.page.getByRole('meter', { name: 'Context used' }).getAttribute('aria-valuetext'), /25% of the context used .*\$0\.12/);
    // A usage patch does not rebuild the pickers (an open one would close).
    const before = await chat.page.getByLabel('Mode', { exact: true }).evaluate((s) => { s.dataset.mark = 'same'; return true; });
    assert.ok(before);
    await send(chat.page, patch(snap, { op: 'header', header: header({ ...head, usage: { used: 150_000, size: 200_000 } }) }));
    assert.equal(await chat.page.getByLabel('Mode', { exact: true }).getAttribute('data-mark'), 'same');
  });

  it('keeps the agent’s order of config options, whatever their categories', async function () {
    const select = (id, name, category) => ({ type: 'select', id, name, category, current: 'a', groups: [{ options: [{ value: 'a', name: 'A' }] }] });
    await send(chat.page, snapshot({ head: { configOptions: [select('effort', 'Effort', 'thought_level'), { type: 'boolean', id: 'fast', name: 'Fast', current: false }, select('model', 'Model', 'model'), select('mode', 'Mode', 'mode')] } }));
    const controls = await Promise.all(['Effort', 'Fast', 'Model', 'Mode'].map((name) => chat.page.getByLabel(name, { exact: true }).elementHandle()));
    const inOrder = await chat.page.evaluate((els) => els.every((e, i) => i === 0 || Boolean(els[i - 1].compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)), controls);
    assert.equal(inOrder, true, 'Effort, Fast, Model, Mode: as the agent listed them');
  });

  it('pins the plan while the turn runs', async function () {
    const plan = [{ content: 'Read the code', priority: 'high', status: 'completed' }, { content: 'Fix it', priority: 'medium', status: 'in_progress' }];
    const snap = snapshot({ plan, turn: 'running' });
    await send(chat.page, snap);
    assert.equal(await chat.page.locator('.plan').evaluate((d) => d.open), true);
    assert.match(await chat.page.locator('.plan > summary').innerText(), /1\/2 done/);
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    assert.equal(await chat.page.locator('.plan').evaluate((d) => d.open), false);
  });

  it('keeps a long transcript small in the DOM, with Show earlier', async function () {
    const entries = [];
    for (let i = 0; i < 2_000; i++) entries.push(i % 2 ? agent(i, `Answer **${i}** with \`code\` and text.`) : user(i, `Question ${i}`));
    await send(chat.page, snapshot({ entries }));
    const nodes = await chat.page.evaluate(() => document.querySelectorAll('*').length);
    assert.ok(nodes < 5_000, `${nodes} nodes`);
    await chat.page.getByRole('button', { name: /Show earlier/ }).click();
    assert.equal(await chat.page.locator('.entries > .entry').count(), 80);
  });

  it('an oversized open block shown as plain text is never cut between the halves of a surrogate pair', async function () {
    const snap = snapshot({ entries: [agent(1, '')], turn: 'running' });
    await send(chat.page, snap);
    const text = `x${'🐘'.repeat(20_000)}`; // every high surrogate at an odd offset: a 4,096-unit piece would end on one
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 0, delta: text }));
    await chat.page.waitForFunction(() => document.querySelectorAll('.md-plain > div').length > 5);
    const pieces = await chat.page.locator('.md-plain > div').evaluateAll((els) => els.map((el) => el.textContent.isWellFormed()));
    assert.ok(pieces.every(Boolean), `pieces well formed: ${pieces.join(',')}`);
    assert.equal(await chat.page.locator('.md-plain').evaluate((el) => el.textContent), text);
  });

  it('a burst of completed Markdown is rendered within a frame\'s budget: the end as Markdown, what is far above as findable text', async function () {
    const snap = snapshot({ entries: [agent(1, '')], turn: 'running' });
    await send(chat.page, snap);
    let text = '';
    for (let i = 0; i < 400; i++) text += `Paragraph ${i} ${'lorem ipsum '.repeat(20)}\n\n`; // ~100 KB
    text += 'The open block.';
    await send(chat.page, patch(snap, { op: 'append', index: 0, offset: 0, delta: text }));
    await chat.page.waitForFunction(() => window.__howdah.settled());
    assert.match(await chat.page.locator('.entry.agent p').last().innerText(), /The open block\./);
    const { rendered, shown } = await chat.page.evaluate(() => ({
      rendered: document.querySelectorAll('.entry.agent p').length,
      shown: document.querySelector('.entry.agent .md').textContent,
    }));
    assert.ok(rendered > 2 && rendered < 200, `the end is rendered, the blocks far above are not (${rendered} paragraphs)`);
    for (const i of [0, 1, 199, 398, 399]) assert.ok(shown.includes(`Paragraph ${i} lorem`), `paragraph ${i} is in the page`);
  });

  it('an open block that outgrows the limit streams as plain text (nothing lost, hidden characters shown) and becomes Markdown when the turn ends', async function () {
    // 3,000 appends in one patch take 10–40 s on a loaded two-core machine: the net is wider than the default minute.
    this.timeout(120_000);
    const snap = snapshot({ entries: [agent(1, 'Intro paragraph.\n\n')], turn: 'running' });
    await send(chat.page, snap);
    let text = 'Intro paragraph.\n\n';
    const piece = 'word **bold** \u202e ';
    const ops = [];
    for (let i = 0; i < 3_000; i++) { ops.push({ op: 'append', index: 0, offset: text.length, delta: piece }); text += piece; }
    await send(chat.page, patch(snap, ...ops)); // ~60 KB of one paragraph that never ends
    await chat.page.waitForFunction(() => document.querySelector('.md-plain'));
    const plain = await chat.page.locator('.md-plain').evaluate((el) => ({ text: el.textContent, pieces: el.children.length, marks: el.querySelectorAll('.invisible-char').length }));
    const shown = text.replaceAll('\u202e', '⟨U+202E⟩');
    assert.ok(shown.endsWith(plain.text) && plain.text.length >= shown.length - 'Intro paragraph.\n\n'.length, 'every character of the open block is there, the bidi control shown as a label');
    assert.ok(plain.pieces > 10, `laid out in pieces: ${plain.pieces}`);
    assert.equal(plain.marks, 3_000);
    assert.equal(await chat.page.locator('.entry.agent strong').count(), 0, 'not parsed while it streams');
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    await chat.page.waitForFunction(() => !document.querySelector('.md-plain'));
    assert.equal(await chat.page.locator('.entry.agent strong').count(), 3_000, 'Markdown once the message is complete');
  });

  it('a transcript sent as its tail: Show earlier pages through what the page holds, then asks the host for more', async function () {
    const qa = (i) => (i % 2 ? agent(i, `Answer ${i}`) : user(i, `Question ${i}`));
    const entries = [];
    for (let i = 9_900; i < 10_000; i++) entries.push(qa(i)); // entries 9,900–9,999 of 10,000
    const snap = snapshot({ entries, first: 9_900 });
    await send(chat.page, snap);
    const earlier = chat.page.getByRole('button', { name: /Show earlier/ });
    assert.match(await earlier.innerText(), /Show earlier \(9960\)/);
    await earlier.click(); // 9,920 onwards: still from the page
    await earlier.click(); // 9,900 onwards
    assert.equal(await chat.page.locator('.entries > .entry').count(), 100);
    assert.deepEqual(await posted(chat.page, 'loadEarlier', { clear: true }), []);
    await earlier.click(); // nothing older on the page: ask the host
    assert.deepEqual(await posted(chat.page, 'loadEarlier'), [{ type: 'loadEarlier', before: 9_900, count: 80 }]);
    const older = [];
    for (let i = 9_820; i < 9_900; i++) older.push(qa(i));
    await send(chat.page, { type: 'earlier', epoch: snap.epoch, first: 9_820, entries: older });
    await chat.page.waitForFunction(() => document.querySelectorAll('.entries > .entry').length === 140);
    assert.match(await chat.page.locator('.entries > .entry').first().innerText(), /Question 9860/);
    assert.match(await earlier.innerText(), /Show earlier \(9860\)/);
  });

  it('sends a permission answer from the inline prompt and shows the badge-worthy state', async function () {
    await send(chat.page, snapshot({ entries: [tool(1, { kind: 'execute', title: 'Run rm -rf build', command: 'rm -rf build', permission: permission() })], turn: 'running' }));
    assert.match(await chat.page.locator('.tool-status-label').innerText(), /Waiting for permission/);
    await chat.page.getByRole('button', { name: 'Always allow', exact: true }).click();
    assert.deepEqual(await posted(chat.page, 'permission'), [{ type: 'permission', toolCallId: 'tc-1', optionId: 'always' }]);
  });

  it('opens links only through the host', async function () {
    await send(chat.page, snapshot({ entries: [agent(1, '[site](https://example.com/a?b=1) and [file](src/a.ts#L3)')] }));
    const link = chat.page.locator('.entry.agent a').first();
    assert.equal(await link.getAttribute('title'), 'https://example.com/a?b=1');
    await link.click();
    await chat.page.locator('.entry.agent a').nth(1).click();
    assert.deepEqual(await posted(chat.page, 'openLink'), [{ type: 'openLink', href: 'https://example.com/a?b=1' }, { type: 'openLink', href: 'src/a.ts#L3' }]);
    assert.ok(chat.page.url().endsWith('/chat.html'), 'the page did not navigate');
  });
});
