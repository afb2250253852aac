// Driving the VS Code workbench in a page: readiness, the command palette, the Howdah view and its webview.
import { EXTENSION_ID } from './config.mjs';

/** Loads `url` and waits until the workbench (status bar) is shown. */
export async function openWorkbench(page, url, timeout = 60000) {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout });
}

/** Opens the command palette (F1); returns its input. */
export async function openPalette(page) {
  await page.keyboard.press('Escape');
  // Keys pressed in a webview's frame (the chat view, a walkthrough step's Markdown) reach the workbench only as far
  // as the webview forwards them, and F1 was seen lost there: take the focus back to the workbench first.
  await page.evaluate(() => { if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur(); });
  const input = page.locator('.quick-input-widget .quick-input-box input');
  // Right after a window reload VS Code 1.90 focuses the editor it restores a moment later, and the palette, already
  // open, closes on that focus loss (seen there: shown 215 ms after F1, hidden 95 ms later as the editor took the
  // focus; in about 1 of 3 runs, never in 1.139): open it again when it did not stay open.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: attempt < 4 ? 5000 : 10000 });
    } catch (e) {
      if (attempt === 4) throw e;
      continue;
    }
    // (still open a moment later: the focus loss closed it within 100 ms)
    await page.waitForTimeout(150);
    if (await input.isVisible()) return input;
    if (attempt === 4) throw new Error('the command palette closed again each time it opened');
  }
}

/** Runs a command by its palette title, e.g. 'Howdah: New Session'. */
export async function runCommand(page, title) {
  // The palette can still close before the command is typed: a focus taken later than openPalette looks (a
  // walkthrough editor selecting its next step after one completed was seen closing it; its input then goes inert
  // while it animates closed). Nothing ran yet then, so open it again; once Enter is pressed, never again.
  for (let attempt = 1; ; attempt++) {
    const input = await openPalette(page);
    try {
      await input.fill(`>${title}`, { timeout: 5000 });
      await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: 10000 });
      break;
    } catch (error) {
      if (attempt === 3 || await input.isVisible()) throw error;
    }
  }
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
}

/** The Howdah entry of the activity bar, found by its role and accessible name. */
export function howdahActivityItem(page) {
  return page.locator('.part.activitybar, .part.sidebar .composite-bar-container')
    .getByRole('tab', { name: /^Howdah/ }).first();
}

// Our view's webview, not an editor panel of ours. Not `[src*="purpose=webviewView"]`: a view the workbench restores
// after a window reload can come without `purpose` in its address (seen under load).
export const WEBVIEW_FRAME = `iframe.webview[src*="extensionId=${EXTENSION_ID}"]:not([src*="purpose=webviewPanel"])`;

/** The chat webview's content (a FrameLocator), whether or not the view is shown. */
export const howdahWebview = (page) => page.frameLocator(WEBVIEW_FRAME).first().frameLocator('#active-frame');

/** Opens the Howdah view from the activity bar; returns a FrameLocator for the chat webview's content. */
export async function openHowdahView(page, timeout = 60000) {
  const item = howdahActivityItem(page);
  await item.waitFor({ timeout });
  // Clicking the active item hides the side bar, and right after a load the workbench may restore the Howdah view
  // while we click: look again until the view is the one shown.
  const sideBar = page.locator('.part.sidebar');
  for (const deadline = Date.now() + timeout; (await item.getAttribute('aria-selected')) !== 'true' || !(await sideBar.isVisible());) {
    if (Date.now() > deadline) throw new Error('the Howdah view did not open from the activity bar');
    await item.click();
    await page.waitForTimeout(500);
  }
  // Wait for our page itself inside the webview, not for the iframe's `ready` class: after a window reload the
  // workbench restored the view with its content shown while that class was still missing (seen in CI).
  const view = howdahWebview(page);
  await view.locator('section.transcript').waitFor({ timeout }).catch(async (error) => {
    throw new Error(`${error.message}\n  webview frames: ${await describeWebviewFrames(page)}`);
  });
  await widenSideBar(page);
  return view;
}

/** For a failure message: each Howdah webview iframe, whether it is visible, and what its page shows. */
async function describeWebviewFrames(page) {
  const frames = page.locator(WEBVIEW_FRAME);
  const out = [];
  for (let i = 0; i < (await frames.count()); i++) {
    const frame = frames.nth(i);
    const inner = frame.contentFrame().locator('#active-frame');
    const hasInner = (await inner.count().catch(() => -1)) > 0;
    const body = hasInner ? await inner.contentFrame().locator('body').innerHTML({ timeout: 2000 }).catch((e) => `(${e.message.split('\n')[0]})`) : '';
    out.push(`#${i} visible=${await frame.isVisible()} class="${await frame.getAttribute('class')}" active-frame=${hasInner} body=${JSON.stringify(body.slice(0, 300))}`);
  }
  if (out.length) return out.join('\n    ');
  const others = await page.locator('iframe').evaluateAll((all) => all.map((f) => `${f.className} ${f.getAttribute('src')?.replace(/^.*?\?/, '?')}`));
  return `none of ours; iframes: ${others.length ? others.join('\n    ') : 'none'}`;
}

/** Drags the side bar's edge so the side bar is about `width` px wide (the default is narrow for a chat). */
export async function widenSideBar(page, width = 520) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const edge = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(edge + 1, y);
  await page.mouse.down();
  await page.mouse.move(edge + 1 + (width - box.width), y, { steps: 5 });
  await page.mouse.up();
}

/** The Agent Changes view in the Howdah side bar, expanded. */
export async function agentChangesPane(page) {
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Agent Changes' }) });
  const header = pane.locator('.pane-header').first();
  await header.waitFor({ timeout: 30000 });
  if (!/\bexpanded\b/.test((await header.getAttribute('class')) ?? '')) await header.click();
  return pane;
}

/** The CodeLens line above one hunk of the diff editor's right side, found by its "Agent change +a −r" lens. */
export const lensLine = (page, stats) => page.locator('.monaco-diff-editor .editor.modified .codelens-decoration', { hasText: `Agent change ${stats}` });
export const lensAction = (line, name) => line.locator('a', { hasText: new RegExp(`^\\W*${name}$`) });
