import ts from 'typescript';
import { type Finding, messageOf, scanSource } from './l10nScan';

/**
 * Rewrites the hard-coded strings `scanSource` finds into translator calls, changing nothing else: a literal becomes
 * `vscode.l10n.t('…')` in a file that imports `vscode` as a value, `l10n.t('…')` from `@vscode/l10n` elsewhere (the
 * webview, the vscode-free layers and plain-Node adapters); a template literal becomes a message with `{0}`, `{1}`…
 * and its substitutions as arguments. What it cannot rewrite (braces in the text) is returned for a person.
 */

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;

const VALUE_VSCODE = /^import \* as vscode from 'vscode';$/m;
const L10N_IMPORT = "import * as l10n from '@vscode/l10n';";

/** Spaces around a message (an icon's gap, a word joined to the next) stay outside it, so the key is the words. */
function padded(message: string, call: (trimmed: string) => string): string {
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(message)!;
  const pieces = [lead ? quote(lead) : '', call(core), trail ? quote(trail) : ''].filter(Boolean);
  return pieces.length === 1 ? pieces[0] : `(${pieces.join(' + ')})`;
}

function replacement(finding: Finding, fn: string): string | undefined {
  const node = finding.node;
  const literalParts = ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)] : [node.text];
  if (literalParts.some((p) => /[{}]/.test(p))) return undefined;
  if (!ts.isTemplateExpression(node)) return padded(node.text, (m) => `${fn}(${quote(m)})`);
  const args = node.templateSpans.map((s) => s.expression.getText()).join(', ');
  return padded(messageOf(node), (m) => `${fn}(${quote(m)}, ${args})`);
}

export interface Rewrite {
  readonly text: string;
  readonly wrapped: number;
  readonly skipped: Finding[];
}

/** One file's text with every finding it can rewrite rewritten (repeated until nothing nested is left). */
export function rewriteSource(file: string, original: string): Rewrite {
  let text = original;
  let wrapped = 0;
  const skipped = new Map<string, Finding>();
  for (let pass = 0; pass < 6; pass++) {
    const findings = scanSource(file, text).filter((f) => !skipped.has(`${f.node.getStart()}:${f.source}`));
    if (findings.length === 0) break;
    const fn = VALUE_VSCODE.test(text) ? 'vscode.l10n.t' : 'l10n.t';
    // Outermost first: a finding inside another one's substitution is rewritten on the next pass.
    const outer = findings.filter((f) => !findings.some((g) => g !== f && g.node.getStart() <= f.node.getStart() && f.node.getEnd() <= g.node.getEnd()));
    let changed = false;
    for (const f of [...outer].sort((a, b) => b.node.getStart() - a.node.getStart())) {
      const code = replacement(f, fn);
      if (code === undefined) {
        skipped.set(`${f.node.getStart()}:${f.source}`, f);
        continue;
      }
      text = text.slice(0, f.node.getStart()) + code + text.slice(f.node.getEnd());
      wrapped++;
      changed = true;
    }
    if (changed && fn === 'l10n.t' && !text.includes(L10N_IMPORT)) text = addImport(file, text);
    if (!changed) break;
  }
  return { text, wrapped, skipped: [...skipped.values()] };
}

function addImport(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const imports = source.statements.filter(ts.isImportDeclaration);
  const at = imports.length ? imports[imports.length - 1].getEnd() : 0;
  return at === 0 ? `${L10N_IMPORT}\n${text}` : `${text.slice(0, at)}\n${L10N_IMPORT}${text.slice(at)}`;
}
