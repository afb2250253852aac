// Issue 19: the real panel in the four themes a VS Code user meets first (Light+, Dark+, High Contrast Dark, High
// Contrast Light), switched as a user does: Preferences: Color Theme, which sets `workbench.colorTheme`. Saves a screenshot of the side bar per theme in
// test-results/e2e/themes/ (the README's pictures come from here) and the `--vscode-*` variables the workbench gave
// the webview in that theme (test/browser/support/themes/ holds the copy the browser tier's axe sweep uses:
// `node test/browser/support/themes/update.mjs` refreshes it from the last run).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { newSession, permissionOption, sendPrompt } from '../harness/panel.mjs';
import { openHowdahView, openPalette } from '../harness/workbench.mjs';
import { closeAllSessions, until } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

/** The theme's `workbench.colorTheme` value, its label in the picker, the file name, the class on the webview's body. */
export const THEMES = [
  { setting: 'Light+', label: 'Light+', file: 'light-plus', bodyClass: 'vscode-light' },
  { setting: 'Dark+', label: 'Dark+', file: 'dark-plus', bodyClass: 'vscode-dark' },
  { setting: 'Default High Contrast', label: 'Dark High Contrast', file: 'high-contrast-dark', bodyClass: 'vscode-high-contrast' },
  { setting: 'Default High Contrast Light', label: 'Light High Contrast', file: 'high-contrast-light', bodyClass: 'vscode-high-contrast-light' },
];

/** Picks `label` in Preferences: Color Theme (the file watcher does not always see a settings file written under it). */
async function chooseTheme(page, label) {
  const input = await openPalette(page);
  await input.fill('>Preferences: Color Theme');
  // "Browse Color Themes in Marketplace" may come first: go down to the command itself.
  const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
  await focused.first().waitFor({ timeout: 10000 });
  for (let i = 0; i < 6 && !/^Preferences: Color Theme\b(?! ?s)/.test((await focused.first().innerText()).trim()); i++) await page.keyboard.press('ArrowDown');
  assert.match((await focused.first().innerText()).trim(), /^Preferences: Color Theme\b/);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await input.fill(label);
  await page.locator('.quick-input-widget .monaco-list-row.focused .label-name', { hasText: new RegExp(`^${label.replace(/[+]/g, '\\+')}$`) }).waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
}

const settingsFile = () => path.join(e2e.server.dataDir, 'User', 'settings.json');
/** The user settings; VS Code writes the file in place, so a read can catch it half written: read it again. */
function readSettings() {
  for (let attempt = 1; ; attempt++) {
    try {
      return JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
    } catch (e) {
      if (!(e instanceof SyntaxError) || attempt === 50) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

function setTheme(value) {
  const settings = readSettings();
  if (value === undefined) delete settings['workbench.colorTheme'];
  else settings['workbench.colorTheme'] = value;
  fs.writeFileSync(settingsFile(), JSON.stringify(settings, null, 2));
}

describe('the panel in the four themes (installed .vsix)', function () {
  this.timeout(240000);
  suiteScreenshots('themes');
  let previous;
  before(() => { previous = readSettings()['workbench.colorTheme']; });
  after(async () => {
    setTheme(previous);
    await closeAllSessions(e2e.page, await openHowdahView(e2e.page)).catch(() => {});
  });

  it('takes each theme’s colours from the workbench, and is saved as a picture per theme', async () => {
    const { page } = e2e;
    await loadWorkbench();
    const wv = await openHowdahView(page);
    await closeAllSessions(page, wv);
    await newSession(wv);
    await sendPrompt(wv, 'greet() says "Hello, undefined!" — please fix it');
    await permissionOption(wv, 'Allow');
    const dir = path.join(e2e.resultsDir, 'themes');
    fs.mkdirSync(dir, { recursive: true });
    const backgrounds = new Map();
    const sideBar = () => wv.locator('html').evaluate((html) => html.style.getPropertyValue('--vscode-sideBar-background')).catch(() => '');
    const bodyHas = async (bodyClass) => (await wv.locator('body').getAttribute('class').catch(() => ''))?.split(/\s+/).includes(bodyClass);
    for (const theme of THEMES) {
      const before = await sideBar();
      // (a retry of this test may start in the theme it chooses first: its variables are there already)
      const already = readSettings()['workbench.colorTheme'] === theme.setting && await bodyHas(theme.bodyClass);
      await chooseTheme(page, theme.label);
      await until(`the webview to take ${theme.setting}`, async () => (await bodyHas(theme.bodyClass)) && (already || (await sideBar()) !== before));
      await until(`workbench.colorTheme to be ${theme.setting}`, () => readSettings()['workbench.colorTheme'] === theme.setting, 10000);
      // The variables arrive with the class; a paint later the picture shows them.
      await page.waitForTimeout(500);
      const variables = await wv.locator('html').evaluate((html) => {
        const out = [];
        for (let i = 0; i < html.style.length; i++) {
          const name = html.style.item(i);
          if (name.startsWith('--vscode-')) out.push([name, html.style.getPropertyValue(name).trim()]);
        }
        return out.sort((a, b) => a[0].localeCompare(b[0]));
      });
      assert.ok(variables.length > 100, `${theme.setting}: the workbench gave the webview its theme variables (${variables.length})`);
      const bodyClasses = (await wv.locator('body').getAttribute('class')).split(/\s+/).filter((c) => c.startsWith('vscode-'));
      fs.writeFileSync(path.join(dir, `${theme.file}.css`),
        `/* --vscode-* variables code-server's VS Code gives a webview in ${theme.setting}. */\n/* body: ${bodyClasses.join(' ')} */\n` +
        `:root {\n${variables.map(([n, v]) => `  ${n}: ${v};`).join('\n')}\n}\n`);
      const body = await wv.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
      backgrounds.set(theme.setting, body);
      await page.locator('.part.sidebar').screenshot({ path: path.join(dir, `${theme.file}.png`) });
      console.log(`    screenshot: ${path.relative(process.cwd(), path.join(dir, `${theme.file}.png`))}`);
    }
    // The panel's own background follows the theme: four themes, at least three different colours (Light+ and HC
    // Light may both be white).
    assert.ok(new Set(backgrounds.values()).size >= 3, `backgrounds per theme: ${JSON.stringify([...backgrounds])}`);
  });
});
