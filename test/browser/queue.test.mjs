// Messages queued during a turn: the prompt keeps sending (the host queues), the queue above the prompt with Edit,
// Remove and Send now, updated by patches without losing an edit in progress, usable with the keyboard alone.
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { agent, patch, queued, snapshot } from './support/fixtures.mjs';

const SHOTS = join(REPO, 'test-results', 'browser');
const LONG = Array.from({ length: 8 }, (_, i) => `Line ${i + 1} of a long queued message that goes on for a while.`).join('\n');

describe('chat webview: queued messages', function () {
  const chat = chatPagePerTest();
  const regions = () => chat.page.getByRole('region', { name: 'Queued message', exact: true });
  const region = (n) => regions().nth(n);
  const focused = () => chat.page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName, name: el?.getAttribute('aria-label') ?? el?.textContent?.trim() };
  });
  const running = (queue) => snapshot({ entries: [agent(1, 'Working on it…')], turn: 'running', queue });

  it('shows each queued message in order, as text, with its attachment chips, under "Queued (n)"', async function () {
    await send(chat.page, running([queued(7, 'first <b>not bold</b>', ['src/a.ts', 'a.ts:1-2']), queued(9, 'second')]));
    assert.equal(await regions().count(), 2);
    assert.deepEqual(await chat.page.locator('.queued-text').allInnerTexts(), ['first <b>not bold</b>', 'second']);
    assert.equal(await chat.page.locator('.queued b').count(), 0, 'text, never HTML');
    assert.deepEqual(await region(0).getByRole('listitem').allInnerTexts(), ['src/a.ts', 'a.ts:1-2']);
    assert.equal(await region(1).getByRole('list').isHidden(), true, 'no chips, no empty list');
    assert.equal(await chat.page.getByRole('group', { name: 'Queued (2)' }).isVisible(), true);
    for (const name of ['Edit', 'Remove', 'Send now']) assert.equal(await region(0).getByRole('button', { name, exact: true }).count(), 1);
    assert.equal(await region(0).getByRole('button', { name: 'Send now' }).getAttribute('title'), 'Stop the turn and send this now');
    // Above the prompt.
    const [queueBox, promptBox] = await Promise.all([chat.page.locator('.queue').boundingBox(), chat.page.locator('.composer').boundingBox()]);
    assert.ok(queueBox.y + queueBox.height <= promptBox.y + 1, 'the queue sits above the prompt');
  });

  it('clamps a long message, with its full text in the title and Show all', async function () {
    await send(chat.page, running([queued(1, LONG, ['notes.md']), queued(2, 'short one')]));
    const text = region(0).locator('.queued-text');
    assert.equal(await text.getAttribute('title'), LONG);
    const clamped = await text.evaluate((el) => el.getBoundingClientRect().height);
    const more = region(0).getByRole('button', { name: 'Show all' });
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await region(1).getByRole('button', { name: 'Show all' }).count(), 0, 'short text: nothing to expand');
    mkdirSync(SHOTS, { recursive: true });
    await chat.page.locator('.queue').screenshot({ path: join(SHOTS, 'queue.png') });
    await chat.page.screenshot({ path: join(SHOTS, 'queue-panel.png') });
    await more.click();
    assert.ok((await text.evaluate((el) => el.getBoundingClientRect().height)) > clamped * 2, 'expanded');
    assert.equal(await region(0).getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded'), 'true');
  });

  it('Edit opens an inline editor: Save and Enter post queueEdit, Escape and Cancel post nothing, empty text is not saved', async function () {
    await send(chat.page, running([queued(3, 'fix the test'), queued(4, 'then the docs')]));
    await region(1).getByRole('button', { name: 'Edit' }).click();
    const box = region(1).getByRole('textbox', { name: 'Edit queued message' });
    assert.equal(await box.inputValue(), 'then the docs');
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Edit queued message' });
    await chat.page.keyboard.type(' and the changelog');
    await chat.page.keyboard.press('Escape');
    assert.equal(await box.count(), 0, 'Escape closes the editor');
    assert.deepEqual(await posted(chat.page, 'queueEdit'), []);
    assert.deepEqual(await region(1).locator('.queued-text').innerText(), 'then the docs');
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Edit' }, 'the focus goes back to Edit');

    await chat.page.keyboard.press('Enter'); // Edit again, from the keyboard
    await chat.page.keyboard.type(' and the changelog');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('please');
    mkdirSync(SHOTS, { recursive: true });
    await chat.page.locator('.queue').screenshot({ path: join(SHOTS, 'queue-edit.png') });
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'queueEdit', { clear: true }), [{ type: 'queueEdit', id: 4, text: 'then the docs and the changelog\nplease' }]);
    assert.equal(await region(1).locator('.queued-text').innerText(), 'then the docs and the changelog\nplease', 'shown at once');

    await region(0).getByRole('button', { name: 'Edit' }).click();
    await region(0).getByRole('textbox').fill('   ');
    assert.equal(await region(0).getByRole('button', { name: 'Save' }).isDisabled(), true);
    await region(0).getByRole('textbox').press('Enter');
    assert.equal(await region(0).getByRole('textbox').count(), 1, 'still editing');
    await region(0).getByRole('textbox').fill('fix the flaky test');
    await region(0).getByRole('button', { name: 'Save' }).click();
    assert.deepEqual(await posted(chat.page, 'queueEdit', { clear: true }), [{ type: 'queueEdit', id: 3, text: 'fix the flaky test' }]);

    await region(0).getByRole('button', { name: 'Edit' }).click();
    await region(0).getByRole('button', { name: 'Cancel' }).click();
    await region(0).getByRole('button', { name: 'Edit' }).click();
    await region(0).getByRole('textbox').press('Enter'); // unchanged: closes without a word
    assert.deepEqual(await posted(chat.page, 'queueEdit'), []);
    assert.equal(await region(0).getByRole('textbox').count(), 0);
  });

  it('Remove and Send now post their intents with the item’s id', async function () {
    await send(chat.page, running([queued(11, 'one'), queued(12, 'two')]));
    await region(1).getByRole('button', { name: 'Remove' }).click();
    await region(0).getByRole('button', { name: 'Send now' }).click();
    assert.deepEqual(await posted(chat.page, 'queueRemove'), [{ type: 'queueRemove', id: 12 }]);
    assert.deepEqual(await posted(chat.page, 'queueSendNow'), [{ type: 'queueSendNow', id: 11 }]);
  });

  it('while a turn runs, Enter and the button send (the host queues) and the button says it queues', async function () {
    const snap = running([]);
    await send(chat.page, snap);
    const button = chat.page.locator('.composer button.send');
    assert.deepEqual([await button.getAttribute('aria-label'), await button.getAttribute('title'), await button.isDisabled()], ['Queue message', 'Queue message (Enter)', false]);
    const box = chat.page.getByRole('textbox', { name: 'Prompt' });
    await box.focus();
    await chat.page.keyboard.type('and then the docs');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'send', { clear: true }), [{ type: 'send', text: 'and then the docs', attachments: [] }]);
    assert.equal(await box.inputValue(), '', 'cleared after posting');
    await send(chat.page, patch(snap, { op: 'turn', turn: 'cancelling' }));
    await box.fill('after the stop');
    await chat.page.getByRole('button', { name: 'Queue message' }).click();
    assert.deepEqual(await posted(chat.page, 'send'), [{ type: 'send', text: 'after the stop', attachments: [] }]);
    assert.equal(await chat.page.getByRole('button', { name: 'Stop' }).isDisabled(), true, 'Stop as before');
    await send(chat.page, patch(snap, { op: 'turn', turn: 'idle' }));
    assert.deepEqual([await button.getAttribute('aria-label'), await button.getAttribute('title')], ['Send', 'Send (Enter)']);
  });

  it('follows queue patches: new items are announced, gone ones removed, an edit of a kept item survives', async function () {
    const snap = running([]);
    await send(chat.page, snap);
    assert.equal(await chat.page.locator('.queue').isHidden(), true, 'nothing when the queue is empty');
    await send(chat.page, patch(snap, { op: 'queue', queue: [queued(1, 'one'), queued(2, 'two')] }));
    await send(chat.page, patch(snap, { op: 'queue', queue: [queued(1, 'one'), queued(2, 'two'), queued(3, 'three')] }));
    await chat.page.waitForFunction(() => document.querySelector('.announcer')?.textContent === 'Queued: three');

    await region(1).getByRole('button', { name: 'Edit' }).click();
    await region(1).getByRole('textbox').fill('two, half edited');
    // The first is sent, the third changed elsewhere: the edit of the second goes on where it was.
    await send(chat.page, patch(snap, { op: 'queue', queue: [queued(2, 'two'), queued(3, 'three!', ['x.ts'])] }));
    assert.equal(await regions().count(), 2);
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Edit queued message' });
    assert.equal(await region(0).getByRole('textbox').inputValue(), 'two, half edited');
    assert.equal(await region(1).locator('.queued-text').innerText(), 'three!');
    assert.deepEqual(await region(1).getByRole('listitem').allInnerTexts(), ['x.ts']);
    assert.equal(await chat.page.getByRole('group', { name: 'Queued (2)' }).count(), 1);

    // The item being edited goes (sent or removed elsewhere): its edit closes with it, and the focus stays in the queue.
    await send(chat.page, patch(snap, { op: 'queue', queue: [queued(3, 'three!', ['x.ts'])] }));
    assert.equal(await regions().count(), 1);
    assert.equal(await chat.page.getByRole('textbox', { name: 'Edit queued message' }).count(), 0);
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Edit' });
    await chat.page.waitForFunction(() => /edit is closed/.test(document.querySelector('.announcer')?.textContent ?? ''));

    await send(chat.page, patch(snap, { op: 'queue', queue: [] }));
    assert.equal(await regions().count(), 0);
    assert.equal(await chat.page.locator('.queue').isHidden(), true);
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Prompt' }, 'the last one gone: the focus goes to the prompt');
  });

  it('is usable with the keyboard alone: every control named, reached by Tab in order, with a visible focus', async function () {
    const snap = running([queued(1, LONG), queued(2, 'two')]);
    await send(chat.page, snap);
    const unnamed = await chat.page.evaluate(() =>
      [...document.querySelectorAll('.queue button, .queue textarea')].filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim())).map((el) => el.outerHTML.slice(0, 100)),
    );
    assert.deepEqual(unnamed, []);
    await region(0).getByRole('button', { name: 'Show all' }).focus();
    const order = [];
    for (let i = 0; i < 7; i++) {
      const f = await focused();
      order.push(f.name);
      const outline = await chat.page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
      assert.notEqual(outline, 'none', `${f.name} shows its focus`);
      await chat.page.keyboard.press('Tab');
    }
    assert.deepEqual(order, ['Show all', 'Edit', 'Remove', 'Send now', 'Edit', 'Remove', 'Send now']);
    assert.deepEqual(await focused(), { tag: 'TEXTAREA', name: 'Prompt' }, 'then the prompt');

    // Remove from the keyboard: the focus moves to the Remove of the message that takes its place.
    await region(0).getByRole('button', { name: 'Remove' }).focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'queueRemove'), [{ type: 'queueRemove', id: 1 }]);
    await send(chat.page, patch(snap, { op: 'queue', queue: [queued(2, 'two')] }));
    assert.deepEqual(await focused(), { tag: 'BUTTON', name: 'Remove' });
    await chat.page.keyboard.press('Space');
    assert.deepEqual((await posted(chat.page, 'queueRemove')).at(-1), { type: 'queueRemove', id: 2 });
  });
});
