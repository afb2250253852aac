import * as vscode from 'vscode';
import type { McpServer } from '../acp/schema/agentMethods';
import type { AllowancesView } from '../shared/allowances';
import { capabilitySettings } from './agentLauncher';
import type { SessionRouter } from './sessionRouter';

/** Howdah's editor-context server, as it is named on the session call (see editorContext/editorContextService.ts). */
const EDITOR_CONTEXT_SERVER = 'howdah';

/**
 * What a session's agent may do: what its running connection was given (`router`), else what a start would give it
 * now (the settings, with the cwd and the workspace folders as its roots).
 */
export function sessionAllowances(cwd: string, router: SessionRouter | undefined): AllowancesView {
  const config = vscode.workspace.getConfiguration('howdah');
  const count = (key: string) => (config.get<unknown[]>(key) ?? []).filter((p) => typeof p === 'string').length;
  const commandRules = { deny: count('commands.deny'), ask: count('commands.ask') };
  const offered = router?.offered;
  const passed = router?.passedMcpServers;
  if (offered && passed) {
    return {
      folders: [...router.roots],
      read: offered.readFiles,
      write: offered.writeFiles,
      terminal: offered.terminal,
      commandRules,
      mcpServers: passed.servers.map((s) => ({ name: s.name, transport: transportOf(s), own: s.name === passed.own })),
      live: true,
    };
  }
  const settings = capabilitySettings(true);
  const folders = [cwd, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((f) => f !== cwd)];
  const configured = configuredServers(config.get('mcpServers'));
  const own = config.get<boolean>('editorContext', true);
  return {
    folders,
    read: settings.readFiles,
    write: settings.writeFiles,
    terminal: settings.terminal,
    commandRules,
    mcpServers: [
      ...(own ? [{ name: EDITOR_CONTEXT_SERVER, transport: 'stdio', own: true }] : []),
      ...configured.filter((s) => !own || s.name !== EDITOR_CONTEXT_SERVER),
    ],
    live: false,
  };
}

function transportOf(server: McpServer): string {
  return 'type' in server ? server.type : 'stdio';
}

/** `howdah.mcpServers` as a start would read it: named entries (mcpServers.ts refuses the malformed ones then). */
function configuredServers(raw: unknown): AllowancesView['mcpServers'] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { name, type } = item as { name?: unknown; type?: unknown };
    if (typeof name !== 'string') return [];
    return [{ name, transport: typeof type === 'string' ? type : 'stdio', own: false }];
  });
}
