// "The agent may": before the first prompt the panel shows the folders the agent can reach, whether it may read,
// write and run commands, and the MCP servers passed to it, each with a link that posts openSetting; once the
// conversation has entries it folds to one line (still expandable). Names and paths are text, never HTML.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { patch, snapshot, user } from './support/fixtures.mjs';

const allowances = {
  folders: ['/ws/app', '/ws/<img src=x onerror=alert(1)>'],
  read: true,
  write: 'ask',
  terminal: 'allow',
  commandRules: { deny: 2, ask: 0 },
  mcpServers: [{ name: 'howdah', transport: 'stdio', own: true }, { name: 'docs<script>', transport: 'http', own: false }],
  live: true,
};

describe('chat webview: what the agent may do', function () {
  const chat = chatPagePerTest();
  const summary = () => chat.page.locator('details.allowances');

  it('is open before the first prompt, with every part and a link to its setting', async function () {
    await send(chat.page, snapshot({ head: { allowances } }));
    await summary().waitFor({ state: 'visible' });
    assert.equal(await summary().evaluate((d) => d.open), true, 'open while the conversation is empty');
    const text = await summary().innerText();
    assert.match(text, /2 folders · read: yes · write: asks first · commands: yes · 2 MCP servers/);
    assert.match(text, /\/ws\/app/);
    assert.match(text, /\/ws\/<img src=x onerror=alert\(1\)>/, 'the folder shown as text');
    assert.match(text, /docs<script> \(http\)/);
    assert.match(text, /howdah \(stdio, Howdah’s editor context/);
    assert.match(text, /Run commands: yes \(rules: 2 never run\)/);
    assert.match(text, /Write files: asks first/);
    assert.equal(await summary().locator('img, script').count(), 0, 'nothing from a name or path becomes an element');

    await summary().getByRole('button', { name: 'Settings' }).nth(1).click();
    await summary().getByRole('button', { name: 'Editor context' }).click();
    const opened = (await posted(chat.page)).filter((m) => m.type === 'openSetting').map((m) => m.setting);
    assert.deepEqual(opened, ['howdah.fs.write', 'howdah.editorContext']);
  });

  it('folds to one line once the conversation starts, and opens again on a click', async function () {
    const snap = snapshot({ head: { allowances } });
    await send(chat.page, snap);
    await summary().waitFor({ state: 'visible' });
    await send(chat.page, patch(snap, { op: 'entry', index: 0, entry: user(1, 'hello') }));
    await chat.page.waitForFunction(() => document.querySelector('details.allowances')?.open === false);
    const box = await summary().boundingBox();
    const line = await summary().locator('summary').boundingBox();
    assert.ok(box.height < line.height * 2 + 12, `folded to its summary line (${box.height} px vs ${line.height} px)`);
    await summary().locator('summary').click();
    assert.equal(await summary().evaluate((d) => d.open), true, 'expandable');
    await summary().locator('summary').press('Enter');
    assert.equal(await summary().evaluate((d) => d.open), false, 'and folds again from the keyboard');
  });

  it('is not there without a session', async function () {
    await send(chat.page, snapshot({ head: { status: 'none', sessionKey: undefined, allowances: undefined } }));
    assert.equal(await summary().isHidden(), true);
  });
});
