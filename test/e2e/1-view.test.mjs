// The Howdah view opens from the activity bar of a VS Code with the packaged .vsix installed, and its
// chat webview loads.
import assert from 'node:assert/strict';
import { howdahActivityItem, openHowdahView } from '../harness/workbench.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

describe('the Howdah view (installed .vsix)', function () {
  const shot = suiteScreenshots('view');

  it('is in the activity bar', async () => {
    await loadWorkbench();
    await howdahActivityItem(e2e.page).waitFor({ timeout: 60000 });
    await shot('workbench');
  });

  it('opens and its webview loads', async () => {
    const wv = await openHowdahView(e2e.page);
    await wv.locator('body *').first().waitFor({ state: 'attached', timeout: 30000 });
    const text = await wv.locator('body').innerText();
    await shot('view-open');
    assert.ok(text.trim().length > 0 || (await wv.locator('body *').count()) > 0, 'the webview rendered something');
  });
});
