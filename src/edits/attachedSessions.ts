import * as vscode from 'vscode';
import type { Session } from '../session/session';
import { AgentFiles, type Writer } from '../workspace/agentFiles';
import { Sandbox } from '../workspace/sandbox';

interface Attached {
  readonly session: Session;
  readonly files: AgentFiles;
}

/**
 * The sessions the edits layer follows, by key: each one's session (its transcript takes the tracker's notes) and its
 * file access, confined to its roots — its cwd, the other workspace folders, and the folders the user granted it.
 */
export class AttachedSessions {
  private readonly attached = new Map<string, Attached>();
  /**
   * Kept per session key for the extension's lifetime, not in its file access: a conversation closed and opened again
   * (same key) keeps the folders the user let its agent use.
   */
  private readonly granted = new Map<string, string[]>();

  /** The file access of a session followed from now on; its writes go to `write`. */
  open(key: string, session: Session, cwd: string, write: Writer): AgentFiles {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((f) => f !== cwd);
    const files = new AgentFiles([cwd, ...folders, ...(this.granted.get(key) ?? [])], write);
    this.attached.set(key, { session, files });
    return files;
  }

  /** Forgets the session, if `files` is still its file access (false when it was not). */
  close(key: string, files: AgentFiles): boolean {
    if (this.attached.get(key)?.files !== files) return false;
    this.attached.delete(key);
    return true;
  }

  has(key: string): boolean {
    return this.attached.has(key);
  }

  session(key: string): Session | undefined {
    return this.attached.get(key)?.session;
  }

  /** Grants the session `folder`; returns its file access, when it is followed, now with that root. */
  addRoot(key: string, folder: string): AgentFiles | undefined {
    this.granted.set(key, [...(this.granted.get(key) ?? []), folder]);
    const files = this.attached.get(key)?.files;
    files?.addRoot(folder);
    return files;
  }

  /**
   * Where the review itself may write (a rejected change, a created file, a restored checkpoint): the workspace
   * folders and every followed session's roots, as an agent may have changed a file in any of them.
   */
  sandbox(): Sandbox {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return new Sandbox([...folders, ...[...this.attached.values()].flatMap((a) => a.files.sandbox.roots)]);
  }
}
