import * as vscode from 'vscode';
import { SessionManager } from './agents/sessionManager';
import { registerStatusBar } from './agents/statusBar';
import type { HowdahApi } from './api';
import { registerCommands } from './commands';
import { createApi } from './testApi';

/** Builds the object graph: a flat list of registrations, each owning its disposables through `context`. */
export function activate(context: vscode.ExtensionContext): HowdahApi {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const manager = new SessionManager(version);
  context.subscriptions.push(manager);
  registerCommands(context, manager, version);
  registerStatusBar(context, manager);
  return createApi(manager);
}

export function deactivate(): Promise<void> | undefined {
  // Agents are stopped by the manager's disposal; nothing else holds a process.
  return undefined;
}
