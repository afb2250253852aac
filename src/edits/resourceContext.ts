import * as vscode from 'vscode';

/**
 * Sets a context key that `resource in <key>` when clauses read (editor-title buttons, palette entries).
 *
 * The URIs go as `vscode.Uri` objects, never as strings. In a remote window (Remote-SSH, WSL, Dev Containers,
 * Codespaces, code-server) the extension host's `file:` URI is what the UI side calls `vscode-remote://<authority>/…`:
 * VS Code's RPC transforms every Uri object crossing to the UI that way, and its `setContext` turns each one into the
 * UI's string form, which is exactly what the editor's `resource` key holds. A string is passed through untouched, so a
 * `file:` string never matches a remote editor. Our own schemes (baselines, proposals) cross unchanged either way.
 */
export function setResourcesContext(key: string, uris: readonly vscode.Uri[]): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, [...uris]);
}
