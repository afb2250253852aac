import * as vscode from 'vscode';
import type { SessionManager } from './agents/sessionManager';

/** Every command Howdah contributes, in one table: id → handler. Titles live in package.json. */
export function registerCommands(context: vscode.ExtensionContext, manager: SessionManager): void {
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'howdah.newSession': async (agentId?: unknown) => {
      const managed = await manager.newSession(typeof agentId === 'string' ? agentId : undefined).catch(() => undefined);
      if (managed) await vscode.commands.executeCommand('howdah.chat.focus');
      return managed?.key;
    },
  };
  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}
