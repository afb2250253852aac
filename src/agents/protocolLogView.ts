import * as vscode from 'vscode';
import type { ProtocolRecorder, TimelineEntry } from '../acp/protocolRecorder';
import { redact } from '../acp/trace';

const BODY_PREVIEW_CHARS = 20_000;

/**
 * "Howdah: Show Protocol Log": the session's traffic as a timeline — direction, method, time, size, folded body —
 * with a filter and a warning on each message that breaks the spec. The page is rendered on the host with every
 * value escaped; its only script (nonce'd) filters rows.
 */
export function showProtocolLog(title: string, recorder: ProtocolRecorder): void {
  const panel = vscode.window.createWebviewPanel('howdah.protocolLog', vscode.l10n.t('Protocol: {0}', title), vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [],
  });
  const render = () => {
    panel.webview.html = page(recorder.timeline(), recorder.droppedCount, nonce());
  };
  render();
  panel.webview.onDidReceiveMessage((message: unknown) => {
    if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'refresh') render();
  });
}

function page(entries: TimelineEntry[], dropped: number, scriptNonce: string): string {
  const problems = entries.filter((e) => e.problems.length).length;
  const start = entries[0]?.time ?? Date.now();
  const rows = entries.map((e) => row(e, start)).join('');
  return `<!DOCTYPE html><html lang="${escape(vscode.env.language)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${scriptNonce}'; script-src 'nonce-${scriptNonce}';">
<style nonce="${scriptNonce}">
body{font-family:var(--vscode-editor-font-family);font-size:var(--vscode-editor-font-size);color:var(--vscode-foreground);padding:0 12px}
header{position:sticky;top:0;background:var(--vscode-editor-background);padding:8px 0;display:flex;gap:12px;align-items:center;border-bottom:1px solid var(--vscode-panel-border)}
input[type=search]{flex:1;background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,transparent);padding:4px}
button{background:var(--vscode-button-background);color:var(--vscode-button-foreground);border:none;padding:4px 10px}
details{border-bottom:1px solid var(--vscode-panel-border);padding:2px 0}
summary{cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.dir{display:inline-block;width:1.5em}.t{opacity:.7;display:inline-block;width:6em}.size{opacity:.7}
.bad summary{color:var(--vscode-editorWarning-foreground)}
.problem{color:var(--vscode-editorWarning-foreground);margin:2px 0 2px 2em}
pre{white-space:pre-wrap;word-break:break-all;margin:4px 0 4px 2em;background:var(--vscode-textCodeBlock-background);padding:6px}
</style></head><body>
<header><input type="search" id="filter" aria-label="${escape(vscode.l10n.t('Filter messages'))}" placeholder="${escape(vscode.l10n.t('Filter by method, id or text'))}">
<label><input type="checkbox" id="onlyProblems"> ${escape(vscode.l10n.t('Only problems ({0})', problems))}</label>
<button id="refresh">${escape(vscode.l10n.t('Refresh'))}</button></header>
<p>${escape(dropped ? vscode.l10n.t('{0} messages, {1} older ones no longer kept. → sent to the agent, ← received, ⚠ warning.', entries.length, dropped) : vscode.l10n.t('{0} messages. → sent to the agent, ← received, ⚠ warning.', entries.length))}</p>
<main id="rows">${rows}</main>
<script nonce="${scriptNonce}">
const vscode = acquireVsCodeApi();
const filter = document.getElementById('filter'), only = document.getElementById('onlyProblems');
function apply() {
  const q = filter.value.toLowerCase();
  for (const row of document.querySelectorAll('#rows details')) {
    const hit = !q || row.textContent.toLowerCase().includes(q);
    row.hidden = !hit || (only.checked && !row.classList.contains('bad'));
  }
}
filter.addEventListener('input', apply); only.addEventListener('change', apply);
document.getElementById('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
</script></body></html>`;
}

function row(e: TimelineEntry, start: number): string {
  const arrow = e.direction === 'send' ? '→' : e.direction === 'receive' ? '←' : '⚠';
  const body = typeof e.message === 'string' ? e.message : JSON.stringify(redact(e.message), null, 2);
  const shown = body.length > BODY_PREVIEW_CHARS ? vscode.l10n.t('{0}\n… ({1} more characters)', body.slice(0, BODY_PREVIEW_CHARS), body.length - BODY_PREVIEW_CHARS) : body;
  const id = e.id !== undefined ? ` #${escape(String(e.id))}` : '';
  const update = e.method === 'session/update' ? ` ${escape(String(((e.message as { params?: { update?: { sessionUpdate?: unknown } } }).params?.update?.sessionUpdate) ?? ''))}` : '';
  return `<details class="${e.problems.length ? 'bad' : ''}"><summary><span class="dir">${arrow}</span><span class="t">+${((e.time - start) / 1000).toFixed(3)}s</span> ${escape(e.method)}${update}${id} <span class="size">(${e.bytes} B)</span>${e.problems.length ? ' ⚠' : ''}</summary>${e.problems
    .map((p) => `<div class="problem">⚠ ${escape(p)}</div>`)
    .join('')}<pre>${escape(shown)}</pre></details>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function nonce(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
