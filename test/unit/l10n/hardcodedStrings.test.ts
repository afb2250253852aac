import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rewriteSource } from '../support/l10nRewrite';
import { NOT_TRANSLATED, scanSource } from '../support/l10nScan';
import { repoRoot } from '../support/fakeAgent';

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path.join(dir, e.name)] : [],
  );
}

const sources = [...sourcesUnder(path.join(repoRoot, 'src')), ...sourcesUnder(path.join(repoRoot, 'webview'))];
const findings = (file: string, text: string) => scanSource(file, text).map((f) => `${f.sink}: ${f.source}`);

describe('no hard-coded user-facing strings (static scan)', () => {
  it('every user-facing literal in src/ and webview/ goes through the translator', function () {
    this.timeout(120_000);
    const found = sources.flatMap((file) => scanSource(file, fs.readFileSync(file, 'utf8')).map((f) => `${path.relative(repoRoot, f.file)}:${f.line} [${f.sink}] ${f.source}`));
    assert.deepEqual(found, [], `wrap these with vscode.l10n.t / l10n.t (node test/tools/l10n-wrap.mjs does it), or add them to NOT_TRANSLATED with why:\n${found.join('\n')}`);
  });

  it('every exception in the allow-list still exists and says why', () => {
    for (const entry of NOT_TRANSLATED) {
      assert.ok(entry.why.length > 5, entry.text);
      assert.ok(fs.existsSync(path.join(repoRoot, entry.file)), `${entry.file} is gone: drop its entries`);
    }
  });

  it('finds notification text, buttons, quick-pick and input-box fields, tree items and diff titles in host code', () => {
    const host = "import * as vscode from 'vscode';\n" +
      "vscode.window.showWarningMessage(`Remove ${name}?`, { modal: true, detail: 'It is deleted.' }, 'Remove');\n" +
      "vscode.window.showQuickPick([{ label: 'Zorbl', description: 'quux' }], { title: 'Pick one', placeHolder: 'Type' });\n" +
      "vscode.window.showInputBox({ prompt: 'A name', validateInput: (v) => (v ? undefined : 'Give a name') });\n" +
      "const item = new vscode.TreeItem('Changes'); item.tooltip = 'Open them';\n" +
      "void vscode.commands.executeCommand('vscode.diff', a, b, `${base} (agent)`);\n";
    assert.deepEqual(findings('/x/src/edits/sample.ts', host), [
      'showWarningMessage: `Remove ${name}?`',
      "property detail: 'It is deleted.'",
      "showWarningMessage: 'Remove'",
      "property label: 'Zorbl'",
      "property description: 'quux'",
      "property title: 'Pick one'",
      "property placeHolder: 'Type'",
      "property prompt: 'A name'",
      "validateInput result: 'Give a name'",
      "tree item label: 'Changes'",
      "assignment to .tooltip: 'Open them'",
      'diff editor title: `${base} (agent)`',
    ]);
  });

  it('finds a comparison with a translated button’s English text (the choice comes back translated)', () => {
    const code = "import * as vscode from 'vscode';\nconst c = await vscode.window.showInformationMessage(vscode.l10n.t('Done'), vscode.l10n.t('Undo'));\nif (c === 'Undo') undo();\n";
    assert.deepEqual(findings('/x/src/edits/sample.ts', code), ["comparison with a translated message: 'Undo'"]);
  });

  it('finds text, labels and prose in the page, and leaves markup, selectors and comparisons alone', () => {
    const page = "import { h } from '../dom';\n" +
      "const LABEL = 'Edit message';\n" +
      "h('button', { class: 'secondary small', 'aria-label': 'Retry', title: `Retry ${n}`, 'data-action': 'retry' }, ' Retry');\n" +
      "el.setAttribute('aria-label', 'Copied'); el.textContent = 'Done'; el.querySelector('.code-block');\n" +
      "if (status === 'Ended') el.replaceChildren(icon('check'), `${n} said:`);\n";
    assert.deepEqual(findings('/x/webview/render/sample.ts', page), [
      "prose in the page: 'Edit message'",
      "property aria-label: 'Retry'",
      'property title: `Retry ${n}`',
      "h() child: ' Retry'",
      "setAttribute('aria-label'): 'Copied'",
      "assignment to .textContent: 'Done'",
      'replaceChildren(): `${n} said:`',
    ]);
  });

  it('accepts what goes through the translator, and codicon-only or wordless text', () => {
    const code = "import * as vscode from 'vscode';\nimport * as l10n from '@vscode/l10n';\n" +
      "vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0}', message), l10n.t('Undo'));\n" +
      "item.text = '$(sync~spin)'; item.tooltip = `${a} — ${b}`;\n";
    assert.deepEqual(findings('/x/src/agents/sample.ts', code), []);
  });

  it('finds output channel names and a file dialog’s open label', () => {
    const code = "import * as vscode from 'vscode';\n" +
      "const log = vscode.window.createOutputChannel('Howdah: Zorbl', { log: true });\n" +
      "void vscode.window.showOpenDialog({ openLabel: 'Let it quux' });\n";
    assert.deepEqual(findings('/x/src/agents/sample.ts', code), ["output channel name: 'Howdah: Zorbl'", "property openLabel: 'Let it quux'"]);
  });

  it('finds text that reaches the user later: a thrown Error and a returned reason in a file of user text, a named text function’s result', () => {
    const code = "import * as l10n from '@vscode/l10n';\n" +
      "function reason(code: string): string {\n  if (code === 'ENOTFOUND') return 'the zorbl could not be found';\n  return l10n.t('quux {0}', code);\n}\n" +
      "export function fetchIt(url: string) { throw new Error(`Could not fetch ${url}`); }\n";
    assert.deepEqual(findings('/x/src/agents/registry/download.ts', code), ["prose in the page: 'the zorbl could not be found'", 'prose in the page: `Could not fetch ${url}`']);
    // Elsewhere on the host an Error's message is often for the log or the agent: not text unless at a sink.
    assert.deepEqual(findings('/x/src/agents/sample.ts', code), []);
    const named = "export function howItEnded(info: { code: number | null }): string {\n  return info.code === null ? 'unstarted' : `exited ${info.code}`;\n}\n";
    assert.deepEqual(findings('/x/src/acp/sample.ts', named), ["result of howItEnded(): 'unstarted'", 'result of howItEnded(): `exited ${info.code}`']);
  });

  it('reads a command rule’s reason as text and its shell patterns as syntax', () => {
    const code = "import * as l10n from '@vscode/l10n';\n" +
      "export const RULES = [pattern('zorbl', 'ask', 'it deletes the quux', ['git reset --hard|--keep', 'rm -r'])];\n";
    assert.deepEqual(findings('/x/src/terminals/commandRules.ts', code), ["prose in the page: 'it deletes the quux'"]);
  });

  it('the rewrite wraps what the scan finds, placeholders for substitutions, spaces outside the message', () => {
    const before = "import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage(`Howdah: restored ${n} files.`, 'Undo').then((c) => c === 'Undo');\n";
    assert.equal(
      rewriteSource('/x/src/edits/sample.ts', before).text,
      "import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage(vscode.l10n.t('Howdah: restored {0} files.', n), vscode.l10n.t('Undo')).then((c) => c === vscode.l10n.t('Undo'));\n",
    );
    const page = "import { h } from '../dom';\nexport const b = h('button', {}, ' Retry');\n";
    assert.equal(rewriteSource('/x/webview/render/sample.ts', page).text, "import { h } from '../dom';\nimport * as l10n from '@vscode/l10n';\nexport const b = h('button', {}, (' ' + l10n.t('Retry')));\n");
  });
});
