import * as vscode from 'vscode';
import { redact } from '../acp/trace';
import type { ManagedSession } from './sessionManager';
import type { ProtocolRecorder } from '../acp/protocolRecorder';

/**
 * "Howdah: Export Debug Bundle": what a bug report needs — versions (VS Code, Howdah, agent), the agent's
 * capabilities, Howdah's settings, the protocol timeline and the agent's log — with secrets redacted, written to a
 * file the user chooses.
 */
export async function exportDebugBundle(
  managed: ManagedSession | undefined,
  details: { howdahVersion: string; recorder?: ProtocolRecorder; init?: unknown; logLines: string[] },
): Promise<vscode.Uri | undefined> {
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Howdah debug bundle'),
    defaultUri: vscode.Uri.file(`howdah-debug-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    filters: { JSON: ['json'] },
  });
  if (!target) return undefined;
  const bundle = buildDebugBundle(managed, details);
  await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(bundle, null, 2), 'utf8'));
  void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: debug bundle written to {0}. Secrets were redacted; read it before sharing.', target.fsPath));
  return target;
}

export function buildDebugBundle(
  managed: ManagedSession | undefined,
  details: { howdahVersion: string; recorder?: ProtocolRecorder; init?: unknown; logLines: string[] },
): Record<string, unknown> {
  const settings = vscode.workspace.getConfiguration('howdah');
  const ownSettings = Object.fromEntries(
    ['agents', 'defaultAgent', 'trace', 'fs.read', 'fs.write', 'terminal', 'sessionDefaults', 'mcpServers', 'editorContext'].map((k) => [k, settings.get(k)]),
  );
  return {
    createdAt: new Date().toISOString(),
    versions: { vscode: vscode.version, howdah: details.howdahVersion, platform: `${process.platform} ${process.arch}`, node: process.version },
    agent: managed ? { id: managed.agentId, name: managed.agentName, version: managed.agentVersion, status: managed.status, exitReason: managed.exitReason } : undefined,
    initialize: redact(details.init),
    settings: redact(ownSettings),
    protocol: details.recorder?.timeline().map((e) => ({ ...e, message: redact(e.message) })),
    log: details.logLines.map((line) => line.replace(/((?:token|key|secret|password)\s*[=:]\s*)\S+/gi, '$1***')),
  };
}
