// The unsaved-files notice above the prompt: the host holds a sent message while workspace files have unsaved
// changes the agent would not see; the notice names them (as text), focuses Save all and send, and each choice posts
// unsavedChoice with the notice's id; a cancelled message comes back into the prompt box with its attachments.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { snapshot } from './support/fixtures.mjs';

describe('chat webview: unsaved files before a prompt', function () {
  const chat = chatPagePerTest();
  const notice = () => chat.page.getByRole('region', { name: 'Unsaved files', exact: true });

  it('names the files as text, takes the focus on Save all and send, and posts each choice with its id', async function () {
    await send(chat.page, snapshot({}));
    const files = ['src/a.ts', 'docs/<img src=x onerror=alert(1)>.md', ...Array.from({ length: 9 }, (_, i) => `more/${i}.txt`)];
    await send(chat.page, { type: 'unsaved', notice: { id: 4, files } });
    assert.equal(await notice().isVisible(), true);
    assert.match(await notice().innerText(), /^\s*11 unsaved files — the agent reads files from disk/);
    assert.equal(await notice().locator('img').count(), 0, 'file names are text, never HTML');
    assert.equal(await notice().getByRole('listitem').count(), 9, 'eight names and "and 3 more"');
    assert.match(await notice().innerText(), /and 3 more/);
    const focused = await chat.page.evaluate(() => document.activeElement?.textContent?.trim());
    assert.equal(focused, 'Save all and send', 'Enter saves and sends');
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await posted(chat.page)).filter((m) => m.type === 'unsavedChoice').at(-1), { type: 'unsavedChoice', id: 4, choice: 'send' }, 'Send anyway from the keyboard');
    await notice().getByRole('button', { name: /Change this in Settings/ }).click();
    assert.deepEqual((await posted(chat.page)).filter((m) => m.type === 'unsavedChoice').at(-1), { type: 'unsavedChoice', id: 4, choice: 'settings' });
    const [box, prompt] = await Promise.all([notice().boundingBox(), chat.page.locator('.composer').boundingBox()]);
    assert.ok(box.y + box.height <= prompt.y + 1, 'above the prompt');
    await send(chat.page, { type: 'unsaved', notice: null });
    assert.equal(await notice().isHidden(), true);
  });

  it('a cancelled message comes back into the prompt box, before what was typed since', async function () {
    await send(chat.page, snapshot({}));
    const box = chat.page.getByRole('textbox', { name: 'Prompt' });
    await box.fill('typed meanwhile');
    await send(chat.page, { type: 'draft', text: 'fix the bug', attachments: [{ kind: 'file', uri: 'file:///ws/a.ts', label: 'a.ts' }] });
    assert.equal(await box.inputValue(), 'fix the bug\ntyped meanwhile');
    assert.deepEqual(await chat.page.locator('.attachment-chips').getByRole('listitem').allInnerTexts().then((t) => t.map((s) => s.trim())), ['a.ts']);
  });
});
