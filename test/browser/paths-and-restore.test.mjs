// Paths shown relative to the workspace folders (full path in the tooltip, and beside it on permission prompts), and
// "Restore files to before this message" on user messages, in headless Chromium with the fake host.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { agent, patch, permission, snapshot, tool, user } from './support/fixtures.mjs';

const ws = [{ name: 'proj', path: '/home/me/proj' }];
const head = (workspaceFolders = ws) => ({ workspaceFolders });

describe('chat webview: workspace-relative paths', function () {
  const chat = chatPagePerTest();

  it('shows locations and diffs inside the workspace relative to it, the full path as the tooltip', async function () {
    await send(chat.page, snapshot({ head: head(), entries: [
      tool(1, { title: 'Edit', kind: 'edit', locations: [{ path: '/home/me/proj/src/a.ts', line: 3 }, { path: '/etc/hosts' }],
        content: [{ type: 'diff', path: '/home/me/proj/src/a.ts', added: 1, removed: 1, newFile: false }] }),
    ] }));
    const card = chat.page.getByRole('article', { name: 'Tool call: Edit' });
    const inside = card.getByRole('button', { name: 'src/a.ts:3', exact: true });
    assert.equal(await inside.getAttribute('title'), '/home/me/proj/src/a.ts:3');
    assert.equal(await card.getByRole('button', { name: '/etc/hosts', exact: true }).count(), 1, 'outside the workspace: the full path');
    assert.equal((await card.locator('.diff-path').innerText()).trim(), 'src/a.ts');
    assert.equal(await card.locator('.diff-path').getAttribute('title'), '/home/me/proj/src/a.ts');
    await inside.click();
    assert.deepEqual(await posted(chat.page, 'openLocation'), [{ type: 'openLocation', path: '/home/me/proj/src/a.ts', line: 3 }], 'the host gets the full path');
  });

  it('shows the full path on a permission prompt, under the relative one, once per path', async function () {
    await send(chat.page, snapshot({ head: head(), turn: 'running', entries: [
      tool(1, { title: 'Write a.ts', kind: 'edit', permission: permission(), locations: [{ path: '/home/me/proj/src/a.ts' }],
        content: [{ type: 'diff', path: '/home/me/proj/src/a.ts', added: 2, removed: 0, newFile: false },
          { type: 'diff', path: '/home/me/proj/src/b.ts', added: 1, removed: 0, newFile: true }] }),
    ] }));
    const prompt = chat.page.getByRole('group', { name: 'The agent asks for permission' });
    await prompt.getByRole('button', { name: 'src/a.ts', exact: true }).waitFor();
    assert.deepEqual(await prompt.locator('.full-path').allInnerTexts(), ['/home/me/proj/src/a.ts', '/home/me/proj/src/b.ts']);
    assert.match(await prompt.innerText(), /Creates\s+src\/b\.ts \(\+1 −0\)/);
  });

  it('reveals hidden characters in the relative and the full path', async function () {
    await send(chat.page, snapshot({ head: head(), turn: 'running', entries: [
      tool(1, { title: 'Read', kind: 'read', permission: permission(), locations: [{ path: '/home/me/proj/src/evil\u202Ejs.txt' }] }),
    ] }));
    const prompt = chat.page.getByRole('group', { name: 'The agent asks for permission' });
    assert.equal(await prompt.locator('.link-button').innerText().then((t) => t.trim()), 'src/evil⟨U+202E⟩js.txt');
    assert.equal(await prompt.locator('.full-path').innerText(), '/home/me/proj/src/evil⟨U+202E⟩js.txt');
    assert.equal(await prompt.locator('.link-button').getAttribute('title'), '/home/me/proj/src/evil⟨U+202E⟩js.txt');
    assert.equal(await chat.page.evaluate(() => /\u202E/.test(document.body.innerText)), false, 'no raw control on screen');
  });

  it('shows paths again when the workspace folders change', async function () {
    const snap = snapshot({ head: head([]), entries: [tool(1, { title: 'Read', kind: 'read', locations: [{ path: '/home/me/proj/a.ts', line: 1 }] })] });
    await send(chat.page, snap);
    const card = chat.page.getByRole('article', { name: 'Tool call: Read' });
    assert.equal(await card.getByRole('button', { name: '/home/me/proj/a.ts:1', exact: true }).count(), 1, 'no folder: the full path');
    await send(chat.page, patch(snap, { op: 'header', header: { ...snap.header, workspaceFolders: ws } }));
    assert.equal(await card.getByRole('button', { name: 'a.ts:1', exact: true }).count(), 1);
  });
});

describe('chat webview: restore files to before a message', function () {
  const chat = chatPagePerTest();

  it('offers the action on each user message and posts that message’s entry id', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'first'), agent(2, 'ok'), user(7, 'second'), agent(8, 'done')] }));
    const buttons = chat.page.getByRole('button', { name: 'Restore files to before this message', exact: true });
    assert.equal(await buttons.count(), 2, 'one per user message, none on agent messages');
    await chat.page.locator('.entry.user').nth(1).hover();
    await buttons.nth(1).click();
    assert.deepEqual(await posted(chat.page, 'restoreCheckpoint'), [{ type: 'restoreCheckpoint', entryId: 7 }]);
  });

  it('is reachable with the keyboard and shown when focused', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'only')] }));
    const button = chat.page.getByRole('button', { name: 'Restore files to before this message', exact: true });
    const actions = chat.page.locator('.entry.user .entry-actions');
    assert.equal(await actions.evaluate((b) => getComputedStyle(b).opacity), '0', 'hidden until hovered or focused');
    await button.focus();
    assert.equal(await actions.evaluate((b) => getComputedStyle(b).opacity), '1');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'restoreCheckpoint'), [{ type: 'restoreCheckpoint', entryId: 1 }]);
  });
});

describe('chat webview: fork from a message', function () {
  const chat = chatPagePerTest();

  it('offers Fork from here on user and agent messages and posts that message’s entry id', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'first'), agent(2, 'ok'), user(7, 'second'), agent(8, 'done')] }));
    const buttons = chat.page.getByRole('button', { name: 'Fork from here', exact: true });
    assert.equal(await buttons.count(), 4, 'one per message');
    await chat.page.locator('.entry.agent').first().hover();
    await buttons.nth(1).click();
    await chat.page.locator('.entry.user').nth(1).hover();
    await buttons.nth(2).click();
    assert.deepEqual(await posted(chat.page, 'fork'), [{ type: 'fork', entryId: 2 }, { type: 'fork', entryId: 7 }]);
  });

  it('on an agent message is shown when focused, and works from the keyboard', async function () {
    await send(chat.page, snapshot({ entries: [agent(3, 'answer')] }));
    const button = chat.page.getByRole('button', { name: 'Fork from here', exact: true });
    const actions = chat.page.locator('.entry.agent .answer-actions');
    assert.equal(await actions.evaluate((b) => getComputedStyle(b).opacity), '0');
    await button.focus();
    assert.equal(await actions.evaluate((b) => getComputedStyle(b).opacity), '1');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'fork'), [{ type: 'fork', entryId: 3 }]);
    await chat.page.getByRole('button', { name: 'Regenerate', exact: true }).click();
    assert.deepEqual(await posted(chat.page, 'regenerate'), [{ type: 'regenerate', entryId: 3 }], 'Regenerate beside it posts the answer’s id');
  });
});

describe('chat webview: edit an earlier message', function () {
  const chat = chatPagePerTest();

  it('Edit message opens the message as a text box; Send posts the new text, Escape cancels without posting', async function () {
    await send(chat.page, snapshot({ entries: [user(1, 'first'), agent(2, 'ok'), user(7, 'second try')] }));
    const edit = chat.page.getByRole('button', { name: 'Edit message', exact: true });
    assert.equal(await edit.count(), 2, 'one per user message');
    await chat.page.locator('.entry.user').nth(1).hover();
    await edit.nth(1).click();
    const box = chat.page.getByRole('textbox', { name: 'Edited message' });
    assert.equal(await box.inputValue(), 'second try');
    await chat.page.keyboard.press('Escape');
    assert.equal(await box.count(), 0);
    assert.deepEqual(await posted(chat.page, 'editMessage'), []);
    await chat.page.locator('.entry.user').nth(1).hover();
    await edit.nth(1).click();
    await box.fill('   ');
    assert.equal(await chat.page.getByRole('group', { name: 'Edit message' }).getByRole('button', { name: 'Send', exact: true }).isDisabled(), true, 'nothing to send');
    await box.fill('second, better');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'editMessage'), [{ type: 'editMessage', entryId: 7, text: 'second, better' }]);
    assert.equal(await box.count(), 0, 'the editor closes');
    assert.equal(await chat.page.locator('.entry.user').nth(1).locator('.user-text').isVisible(), true);
  });
});
