// Context compactions in the timeline: one line per compaction saying where it stands, its summary folded under it.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, send } from './support/chatPage.mjs';
import { patch, snapshot } from './support/fixtures.mjs';

const compaction = (id, status, text = '', error) => ({ kind: 'compaction', id, status, text, blocks: [], ...(error ? { error } : {}) });

describe('chat webview: compaction', function () {
  const chat = chatPagePerTest();

  it('"Compacting context…" becomes "Context compacted" with the summary folded under it; failures say why', async function () {
    const snap = snapshot({ entries: [compaction(1, 'in_progress')], turn: 'running' });
    await send(chat.page, snap);
    const first = chat.page.locator('details.compaction').first();
    assert.equal((await first.locator('summary').textContent()).trim(), 'Compacting context…');
    await send(chat.page, patch(snap, { op: 'entry', index: 0, entry: compaction(1, 'completed', 'We **fixed** the parser.') }, { op: 'entry', index: 1, entry: compaction(2, 'failed', '', 'timed out') }, { op: 'entry', index: 2, entry: compaction(3, '_vendor_paused') }));
    assert.equal((await first.locator('summary').textContent()).trim(), 'Context compacted (summary)');
    assert.equal(await first.locator('.compaction-body').count(), 0, 'the summary renders only when opened');
    await first.locator('summary').click();
    assert.equal((await first.locator('.compaction-body strong').textContent()), 'fixed');
    const failed = chat.page.locator('details.compaction').nth(1);
    assert.equal((await failed.locator('summary').textContent()).trim(), 'Context compaction failed');
    assert.equal((await failed.locator('.compaction-error').textContent()), 'timed out');
    assert.equal((await chat.page.locator('details.compaction').nth(2).locator('summary').textContent()).trim(), 'Context compaction: _vendor_paused');
  });
});
