import * as vscode from 'vscode';
import type { Attachment } from '../shared/protocol';
import { problemsText, type Problem } from './problemsText';

type ContextAttachment = Extract<Attachment, { kind: 'context' }>;

const SEVERITY: Record<vscode.DiagnosticSeverity, Problem['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/**
 * The Problems of `uri` — only those touching `range` when one is given — or, without a uri, of the whole workspace
 * (errors and warnings). Undefined when there are none.
 */
export function problemsAttachment(uri?: vscode.Uri, range?: vscode.Range): ContextAttachment | undefined {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = uri ? [[uri, vscode.languages.getDiagnostics(uri)]] : vscode.languages.getDiagnostics();
  const problems: Problem[] = [];
  for (const [file, diagnostics] of entries) {
    for (const d of diagnostics) {
      if (range && !d.range.intersection(range)) continue;
      if (!uri && d.severity !== vscode.DiagnosticSeverity.Error && d.severity !== vscode.DiagnosticSeverity.Warning) continue;
      const code = typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
      problems.push({
        path: vscode.workspace.asRelativePath(file),
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: SEVERITY[d.severity],
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(code ? { code } : {}),
      });
    }
  }
  if (problems.length === 0) return undefined;
  const label = uri
    ? vscode.l10n.t('Problems in {0} ({1})', vscode.workspace.asRelativePath(uri) + (range ? `:${range.start.line + 1}-${range.end.line + 1}` : ''), problems.length)
    : vscode.l10n.t('Problems in the workspace ({0})', problems.length);
  return { kind: 'context', source: 'problems', label, text: problemsText(problems) };
}

/**
 * The active terminal's selection. VS Code has no API for it, so it is copied with the terminal's own Copy command
 * and read from the clipboard, whose previous text is put back.
 */
export async function terminalSelectionAttachment(): Promise<ContextAttachment | undefined> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return undefined;
  const before = await vscode.env.clipboard.readText();
  const marker = `howdah-no-selection-${Date.now()}`;
  await vscode.env.clipboard.writeText(marker);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const text = await vscode.env.clipboard.readText();
    if (text === marker || text.trim() === '') return undefined;
    return { kind: 'context', source: 'terminal', label: vscode.l10n.t('Terminal {0}', terminal.name), text };
  } finally {
    await vscode.env.clipboard.writeText(before);
  }
}
