// A fake VS Code host for the chat webview: bundles webview/main.ts and src/panel/html.ts with esbuild, serves the
// page (with the production CSP, from the real chatPageHtml) plus media/ over http://127.0.0.1, and opens it in
// headless Chromium through playwright-core. The page gets an `acquireVsCodeApi` that records every posted message
// in `window.__posted`; tests feed host messages with `send`.
import { strict as assert } from 'node:assert';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureSystemPackages } from '../../harness/provision.mjs';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const CHROMIUM = process.env.HOWDAH_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };

/** Theme variables a VS Code dark theme would inject (the page itself uses nothing else). */
const THEME = `:root {
  --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-font-weight: normal;
  --vscode-editor-font-family: monospace; --vscode-editor-font-size: 13px;
  --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-sideBar-background: #181818;
  --vscode-focusBorder: #0078d4; --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff;
  --vscode-button-hoverBackground: #026ec1; --vscode-button-secondaryBackground: #313131;
  --vscode-button-secondaryForeground: #cccccc; --vscode-button-secondaryHoverBackground: #3c3c3c;
  --vscode-input-background: #313131; --vscode-input-foreground: #cccccc; --vscode-input-border: #3c3c3c;
  --vscode-dropdown-background: #313131; --vscode-dropdown-foreground: #cccccc; --vscode-dropdown-border: #3c3c3c;
  --vscode-panel-border: #2b2b2b; --vscode-textLink-foreground: #4daafc; --vscode-textLink-activeForeground: #4daafc;
  --vscode-textCodeBlock-background: #2b2b2b; --vscode-textPreformat-foreground: #d0d0d0;
  --vscode-textBlockQuote-background: #2b2b2b; --vscode-textBlockQuote-border: #616161;
  --vscode-editorWidget-background: #202020; --vscode-editorWidget-border: #313131; --vscode-widget-shadow: #0000005c;
  --vscode-errorForeground: #f85149; --vscode-editorWarning-foreground: #cca700;
  --vscode-inputValidation-warningBackground: #352a05; --vscode-inputValidation-warningBorder: #b89500;
  --vscode-testing-iconPassed: #73c991; --vscode-gitDecoration-addedResourceForeground: #81b88b;
  --vscode-gitDecoration-deletedResourceForeground: #c74e39; --vscode-badge-background: #616161;
  --vscode-badge-foreground: #f8f8f8; --vscode-progressBar-background: #0078d4; --vscode-icon-foreground: #cccccc;
  --vscode-toolbar-hoverBackground: #5a5d5e50; --vscode-list-hoverBackground: #2a2d2e;
  --vscode-list-activeSelectionBackground: #04395e; --vscode-list-activeSelectionForeground: #ffffff;
}`;

let shared;

/** Builds once, serves, launches Chromium; the same instance for every test file of a run. */
export function chatHost() {
  shared ??= start();
  return shared;
}

export async function closeChatHost() {
  if (!shared) return;
  const host = await shared;
  shared = undefined;
  await host.close();
}

/** A banner for ES module bundles of CommonJS packages (@vscode/l10n reads files with `fs`): a `require` of their own. */
export const esmRequire = `import { createRequire as __howdahRequire } from 'node:module'; const require = __howdahRequire(${JSON.stringify(join(REPO, 'package.json'))});`;

async function start() {
  const dir = mkdtempSync(join(tmpdir(), 'howdah-webview-'));
  await build({ entryPoints: [join(REPO, 'webview/main.ts')], bundle: true, platform: 'browser', format: 'iife', target: 'es2022',
    outfile: join(dir, 'webview.js'), logLevel: 'warning' });
  await build({ entryPoints: [join(REPO, 'src/panel/html.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20',
    outfile: join(dir, 'html.mjs'), logLevel: 'warning', banner: { js: esmRequire } });
  const { chatPageHtml } = await import(pathToFileURL(join(dir, 'html.mjs')).href);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file;
    if (url.pathname === '/chat.html') {
      const origin = `http://127.0.0.1:${server.address().port}`;
      const nonce = 'testnonce' + Math.random().toString(36).slice(2);
      let html = chatPageHtml({ cspSource: origin, script: `${origin}/webview.js`, styles: [`${origin}/theme.css`, `${origin}/media/codicons/codicon.css`, `${origin}/media/chat.css`] }, nonce);
      // The fake host goes first, under the same nonce, as VS Code's own preload does.
      html = html.replace(`<script nonce="${nonce}"`, `<script nonce="${nonce}" src="${origin}/fake-host.js"></script>\n    <script nonce="${nonce}"`);
      return reply(res, 'text/html', html);
    }
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/theme.css') return reply(res, 'text/css', THEME);
    if (url.pathname === '/fake-host.js') return reply(res, 'text/javascript', FAKE_HOST);
    if (url.pathname === '/webview.js') file = join(dir, 'webview.js');
    else if (url.pathname.startsWith('/media/')) file = normalize(join(REPO, url.pathname));
    if (!file || !file.startsWith(REPO) && !file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    reply(res, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;

  const { chromium } = createRequire(join(REPO, 'package.json'))('playwright-core');
  // a machine that never ran the project has no Chromium yet: install it (as root) or say how
  if (!process.env.HOWDAH_CHROMIUM) ensureSystemPackages(['chromium']);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install -y chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });

  return {
    origin,
    browser,
    /** A fresh page with the chat loaded and its `ready` received. */
    async open({ width = 420, height = 800 } = {}) {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      const errors = [];
      const requests = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${origin}/chat.html`);
      await page.waitForFunction(() => window.__posted?.some((m) => m.type === 'ready'));
      return { page, errors, requests, close: () => context.close() };
    },
    async close() {
      await browser.close().catch(() => {});
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function reply(res, type, body) {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/** Runs in the page before the bundle: what VS Code's webview preload provides, plus recording. */
const FAKE_HOST = `
window.__posted = [];
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
let state;
let acquired = false;
window.acquireVsCodeApi = () => {
  if (acquired) throw new Error('acquireVsCodeApi called twice');
  acquired = true;
  return Object.freeze({
    postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => state,
    setState: (s) => { state = s; },
  });
};`;

/** Delivers host messages to the page and renders them now (no waiting for a frame). */
export async function send(page, ...messages) {
  await page.evaluate(async (list) => {
    for (const m of list) window.postMessage(m, '*');
    await new Promise((resolve) => setTimeout(resolve, 0));
    window.__howdah.render();
  }, messages);
}

/** Messages the page posted to the host (optionally of one type), and clears the record when asked. */
export async function posted(page, type, { clear = false } = {}) {
  return page.evaluate(([t, c]) => {
    const all = window.__posted.filter((m) => !t || m.type === t);
    if (c) window.__posted.length = 0;
    return all;
  }, [type, clear]);
}

/**
 * A fresh chat page per test, closed after it, failing the test on any page error. Call in a `describe` body; the
 * returned object stands for the current test's page (its properties are read from the page open at the time).
 */
export function chatPagePerTest() {
  let chat;
  beforeEach(async function () {
    chat = await (await chatHost()).open();
  });
  afterEach(async function () {
    assert.deepEqual(chat.errors, [], 'no page errors');
    await chat.close();
  });
  return new Proxy({}, { get: (_target, key) => chat[key] });
}
