import * as vscode from 'vscode';

export const UNTRUSTED_MESSAGE =
  vscode.l10n.t('Howdah does not start agents in an untrusted workspace: agents run programs and change files. Trust the workspace to use them.');

/** Thrown wherever an agent would be started while the workspace is not trusted. */
export class UntrustedWorkspaceError extends Error {
  constructor() {
    super(UNTRUSTED_MESSAGE);
    this.name = 'UntrustedWorkspaceError';
  }
}

/**
 * Whether agents may start here: VS Code's workspace trust. Tests can make it stricter (`simulateUntrusted`), never
 * looser: there is no way to start agents in a workspace VS Code does not trust.
 */
export class WorkspaceTrust implements vscode.Disposable {
  private simulated = false;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly granted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());

  get isTrusted(): boolean {
    return vscode.workspace.isTrusted && !this.simulated;
  }

  /** Treats the workspace as untrusted (`true`) or as VS Code says again (`false`). */
  simulateUntrusted(untrusted: boolean): void {
    if (this.simulated === untrusted) return;
    this.simulated = untrusted;
    this.changed.fire();
  }

  /** Throws `UntrustedWorkspaceError` unless agents may start. */
  check(): void {
    if (!this.isTrusted) throw new UntrustedWorkspaceError();
  }

  dispose(): void {
    this.granted.dispose();
    this.changed.dispose();
  }
}
