import * as vscode from 'vscode';
import { registerSessions } from './agents/registerSessions';
import { registerStatusBar } from './agents/statusBar';
import type { HowdahApi } from './api';
import { registerCommands } from './commands';
import { registerChatPanel } from './panel/registerChatPanel';
import { registerTerminals } from './terminals/agentTerminals';
import { createApi } from './testApi';

let shutdown: (() => Promise<void>) | undefined;

/** Builds the object graph: a flat list of registrations, each owning its disposables through `context`. */
export function activate(context: vscode.ExtensionContext): HowdahApi {
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const terminals = registerTerminals(context);
  const { manager, store } = registerSessions(context, version, terminals);
  registerCommands(context, manager, store, version);
  registerStatusBar(context, manager);
  registerChatPanel(context, manager);
  shutdown = () => manager.shutdown();
  return createApi(manager);
}

/** Saves every conversation and stops every agent before the extension host goes away. */
export function deactivate(): Promise<void> | undefined {
  return shutdown?.();
}
