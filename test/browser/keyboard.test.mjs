// Keyboard-only use: permission prompts, the prompt box (send, new line, history, / and @ completion), Stop, and
// accessible names on every control.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { agent, patch, permission, snapshot, tool } from './support/fixtures.mjs';

describe('chat webview: keyboard', function () {
  const chat = chatPagePerTest();
  const focused = () => chat.page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName, name: el?.getAttribute('aria-label') ?? el?.textContent?.trim() };
  });

  it('moves the focus to a new permission prompt and answers it with the keyboard', async function () {
    const snap = snapshot({ entries: [agent(1, 'Let me run it.')], turn: 'running' });
    await send(chat.page, snap);
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: tool(2, { kind: 'execute', title: 'Run make', command: 'make all', status: 'pending', permission: permission() }) }));
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Allow once' });
    await chat.page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Always allow' });
    await chat.page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Reject' });
    await chat.page.keyboard.press('Shift+Tab');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'permission'), [{ type: 'permission', toolCallId: 'tc-2', optionId: 'always' }]);
    // Each option's accessible name is exactly its name.
    const names = await chat.page.locator('.permission-option').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    assert.deepEqual(names, ['Allow once', 'Always allow', 'Reject']);
  });

  it('sends with Enter, adds a line with Shift+Enter, walks the history with ↑/↓', async function () {
    await send(chat.page, snapshot());
    const box = chat.page.getByRole('textbox', { name: 'Prompt' });
    await box.focus();
    await chat.page.keyboard.type('hello');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('world');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'send'), [{ type: 'send', text: 'hello\nworld', attachments: [] }]);
    assert.equal(await box.inputValue(), '');
    await chat.page.keyboard.type('draft');
    await chat.page.keyboard.press('Home');
    await chat.page.keyboard.press('ArrowUp');
    assert.equal(await box.inputValue(), 'hello\nworld');
    await chat.page.keyboard.press('ArrowUp'); // at the oldest: stays
    assert.equal(await box.inputValue(), 'hello\nworld');
    await box.evaluate((t) => t.setSelectionRange(t.value.length, t.value.length));
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await box.inputValue(), 'draft');
  });

  it('New session puts the caret in the prompt, and what is typed while the agent starts is kept and sent', async function () {
    await send(chat.page, snapshot({ head: { status: 'none' } }));
    await chat.page.getByRole('button', { name: 'New session' }).first().click();
    assert.deepEqual(await posted(chat.page, 'newSession'), [{ type: 'newSession' }]);
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Prompt' });
    await chat.page.keyboard.type('fix the');
    // The new session's snapshot arrives mid-sentence: the typing goes on in the same box.
    await send(chat.page, snapshot({ head: { status: 'ready', sessionKey: 's-new' } }));
    await chat.page.keyboard.type(' tests');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'send'), [{ type: 'send', text: 'fix the tests', attachments: [] }]);
  });

  it('completes the agent’s commands after / and shows their input hint', async function () {
    await send(chat.page, snapshot({ commands: [{ name: 'review', description: 'Review the code', hint: 'files to review' }, { name: 'test', description: 'Run tests' }] }));
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await chat.page.keyboard.type('/re');
    const list = chat.page.getByRole('listbox', { name: 'Suggestions' });
    assert.deepEqual(await list.getByRole('option').allInnerTexts(), ['/review\nReview the code']);
    await chat.page.keyboard.press('Enter');
    assert.equal(await chat.page.getByRole('textbox', { name: 'Prompt' }).inputValue(), '/review ');
    assert.equal(await chat.page.locator('.prompt-hint').innerText(), '/review: files to review');
    assert.equal(await list.isHidden(), true);
  });

  it('completes workspace files after @ and sends them as attachments', async function () {
    await send(chat.page, snapshot());
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await chat.page.keyboard.type('look at @a.t');
    await chat.page.waitForFunction(() => window.__posted.some((m) => m.type === 'searchFiles' && m.query === 'a.t'));
    const search = (await posted(chat.page, 'searchFiles')).pop();
    await send(chat.page, { type: 'fileResults', requestId: search.requestId, files: [{ uri: 'file:///w/src/a.ts', label: 'src/a.ts' }, { uri: 'file:///w/lib/a.txt', label: 'lib/a.txt' }] });
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('ArrowUp');
    await chat.page.keyboard.press('Enter');
    assert.equal(await chat.page.getByRole('textbox', { name: 'Prompt' }).inputValue(), 'look at @src/a.ts ');
    assert.equal(await chat.page.getByRole('listitem').count(), 1);
    await chat.page.keyboard.type('please');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'send'), [{ type: 'send', text: 'look at @src/a.ts please', attachments: [{ kind: 'file', uri: 'file:///w/src/a.ts', label: 'src/a.ts' }] }]);
  });

  it('attaches what the host pushes (Add Selection) and removes it with the keyboard', async function () {
    await send(chat.page, snapshot());
    await send(chat.page, { type: 'attach', attachments: [{ kind: 'selection', uri: 'file:///w/a.ts', label: 'a.ts:1-2', startLine: 1, endLine: 2, text: 'x\ny', languageId: 'typescript' }] });
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Prompt' });
    await chat.page.keyboard.press('Shift+Tab');
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Remove a.ts:1-2' });
    await chat.page.keyboard.press('Enter');
    assert.equal(await chat.page.getByRole('listitem').count(), 0);
  });

  it('stops a running turn with the Stop button', async function () {
    const snap = snapshot({ turn: 'running' });
    await send(chat.page, snap);
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await chat.page.keyboard.press('Tab'); // Send queues while the turn runs, and is still there
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Queue message' });
    await chat.page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Stop' });
    await chat.page.keyboard.press('Enter');
    assert.equal((await posted(chat.page, 'cancel')).length, 1);
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    assert.equal(await chat.page.getByRole('button', { name: 'Stop' }).isHidden(), true);
  });

  it('gives every control an accessible name', async function () {
    await send(chat.page, snapshot({
      head: { sessions: [{ key: 's1', label: 'A' }, { key: 's2', label: 'B' }], modes: { current: 'a', options: [{ value: 'a', name: 'A' }] },
        configOptions: [{ type: 'boolean', id: 'b', name: 'Bool', current: true }], usage: { used: 1, size: 10 } },
      entries: [agent(1, '```js\nx\n```'), tool(2, { locations: [{ path: '/a' }], content: [{ type: 'diff', path: '/a', added: 1, removed: 0, newFile: true }], permission: permission(), rawInput: '{}' })],
      plan: [{ content: 'step', priority: 'low', status: 'pending' }],
    }));
    const unnamed = await chat.page.evaluate(() =>
      [...document.querySelectorAll('button, select, textarea, input, summary, [role=meter]')]
        .filter((el) => !el.hidden && !(el.getAttribute('aria-label') || el.textContent?.trim() || el.closest('label')?.textContent?.trim()))
        .map((el) => el.outerHTML.slice(0, 100)),
    );
    assert.deepEqual(unnamed, []);
    for (const name of ['Prompt']) assert.equal(await chat.page.getByRole('textbox', { name }).count(), 1);
    for (const name of ['Send', 'New session']) assert.equal(await chat.page.getByRole('button', { name, exact: true }).count(), 1);
  });
});
