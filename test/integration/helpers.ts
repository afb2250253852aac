// What the integration tests share: the extension's API, polling with a deadline, reading snapshots.
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';

export const EXTENSION_ID = 'howdah.howdah';

/** Activates Howdah and returns the API `activate` resolves to. */
export async function howdah(): Promise<HowdahApi> {
  const ext = vscode.extensions.getExtension<HowdahApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  if (!api || typeof api.newSession !== 'function') throw new Error('activate() did not return the HowdahApi');
  return api;
}

/** Polls `probe` until it returns a truthy value (resolved with it) or `timeoutMs` passes (rejects with `what`). */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

/**
 * `waitFor`, and when it times out, what the edits layer saw: the changes still listed for review (an opaque one says
 * why) and the tail of its log.
 */
export function waitSeen<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs?: number): Promise<T> {
  return waitFor(what, probe, timeoutMs).catch(async (e: Error) => {
    const seen = (await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: unknown[]; log: string[] };
    throw new Error(`${e.message}
still listed for review: ${JSON.stringify(seen.pending)}
edits log:
${seen.log.slice(-40).join('\n')}`);
  });
}

interface EntryLike { kind?: string; role?: string; text?: string }

/** The agent's message text in a session snapshot (all agent message entries, in order). */
export function agentText(snapshot: unknown): string {
  const entries = (snapshot as { entries?: EntryLike[] } | undefined)?.entries;
  if (!Array.isArray(entries)) return JSON.stringify(snapshot ?? null);
  return entries.filter(e => e.kind === 'message' && e.role === 'agent').map(e => e.text ?? '').join('');
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The first workspace folder (the scratch copy of fixtures/workspace). */
export function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri;
}
