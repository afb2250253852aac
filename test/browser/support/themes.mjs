// The four themes a VS Code user meets first, as VS Code hands them to a webview: every `--vscode-*` variable set on
// <html> (inline, as the workbench does) and one class on <body>. The variable values were taken from code-server's
// real webview in each theme by the e2e tier (test/e2e/9-themes.test.mjs); `node test/browser/support/themes/update.mjs`
// copies the last run's files here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('./themes/', import.meta.url));

export const THEMES = [
  { name: 'Light+', file: 'light-plus', kind: 'vscode-light' },
  { name: 'Dark+', file: 'dark-plus', kind: 'vscode-dark' },
  { name: 'High Contrast Dark', file: 'high-contrast-dark', kind: 'vscode-high-contrast' },
  { name: 'High Contrast Light', file: 'high-contrast-light', kind: 'vscode-high-contrast-light' },
];

/** The theme's variables as [name, value] pairs, read from its CSS file. */
export function themeVariables(theme) {
  const css = readFileSync(`${HERE}${theme.file}.css`, 'utf8');
  return [...css.matchAll(/(--vscode-[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]);
}

/** The classes VS Code put on the webview's body in that theme (recorded with the variables). */
export function themeBodyClasses(theme) {
  const css = readFileSync(`${HERE}${theme.file}.css`, 'utf8');
  return css.match(/\/\* body: ([^*]+)\*\//)?.[1].trim().split(/\s+/) ?? [theme.kind];
}

/** Puts `theme` on the page as VS Code does when the user switches theme (no reload). */
export async function applyTheme(page, theme) {
  await page.evaluate(([variables, kind, classes]) => {
    // The fake host's own stand-in theme goes: a variable this theme lacks must be missing, as it is in VS Code.
    document.querySelector('link[href$="/theme.css"]')?.remove();
    const html = document.documentElement;
    for (let i = html.style.length - 1; i >= 0; i--) if (html.style.item(i).startsWith('--vscode-')) html.style.removeProperty(html.style.item(i));
    for (const [name, value] of variables) html.style.setProperty(name, value);
    document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
    document.body.classList.add(...classes);
    document.body.dataset.vscodeThemeKind = kind;
  }, [themeVariables(theme), theme.kind, themeBodyClasses(theme)]);
}
