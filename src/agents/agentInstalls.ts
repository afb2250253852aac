import * as path from 'node:path';
import * as vscode from 'vscode';
import { readLoginShellPath, resolveCommand, systemResolutionEnv } from './commandResolution';
import { AgentInstaller, type Installed, type InstallStep } from './registry/installer';
import { InstallError } from './registry/installErrors';
import { currentPlatform } from './registry/platform';
import type { RegistryAgent } from './registry/registryFormat';
import { compareVersions } from './registry/version';

/**
 * The agents Howdah installed, in `globalStorageUri/agents/<id>/<version>/` (the installer, src/agents/registry/),
 * with the VS Code side of installing: a cancellable progress notification (steps, bytes), errors that name their
 * cause. A running session holds a lease on its version: an update installs the new version beside it, and an old
 * version is deleted once no session uses it.
 */
export class AgentInstalls implements vscode.Disposable {
  private readonly installer: AgentInstaller;
  private installs = new Map<string, Installed[]>();
  private readonly leases = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** An agent was installed, updated or removed. */
  readonly onDidChange = this.changed.event;
  private readonly running = new Map<string, Promise<Installed | undefined>>();
  private loginShellPath: Promise<string | undefined> | undefined;

  constructor(globalStorage: vscode.Uri) {
    this.installer = new AgentInstaller(path.join(globalStorage.fsPath, 'agents'));
  }

  get root(): string {
    return this.installer.root;
  }

  async load(): Promise<void> {
    this.installs = await this.installer.list();
    this.changed.fire();
  }

  /** The newest installed version of `id`. */
  current(id: string): Installed | undefined {
    return [...(this.installs.get(id) ?? [])].sort((a, b) => compareVersions(b.version, a.version))[0];
  }

  installedIds(): string[] {
    return [...this.installs.keys()];
  }

  /** Held by a running session for the version it started with; released when its connection stops. */
  lease(installed: Installed): vscode.Disposable {
    const key = `${installed.id}@${installed.version}`;
    this.leases.set(key, (this.leases.get(key) ?? 0) + 1);
    let released = false;
    return {
      dispose: () => {
        if (released) return;
        released = true;
        const left = (this.leases.get(key) ?? 1) - 1;
        if (left > 0) this.leases.set(key, left);
        else this.leases.delete(key);
        void this.pruneOld(installed.id);
      },
    };
  }

  inUse(id: string, version?: string): boolean {
    return [...this.leases.keys()].some((k) => (version ? k === `${id}@${version}` : k.startsWith(`${id}@`)));
  }

  /**
   * Installs (or updates to) the registry's version of `agent`, showing progress; resolves to the install, or
   * undefined when it failed or was cancelled (said to the user). Concurrent calls for one agent share one install.
   */
  install(agent: RegistryAgent): Promise<Installed | undefined> {
    const key = `${agent.id}@${agent.version}`;
    const existing = this.running.get(key);
    if (existing) return existing;
    const run = this.runInstall(agent).finally(() => this.running.delete(key));
    this.running.set(key, run);
    return run;
  }

  /** Throws the install's error instead of showing it (the test API and the registry matrix use it). */
  async installOrThrow(agent: RegistryAgent, signal?: AbortSignal, onStep?: (step: InstallStep) => void): Promise<Installed> {
    const installed = await this.installer.install(agent, { platform: currentPlatform(), signal: signal ?? new AbortController().signal, ...(await this.tools()), ...(onStep ? { onStep } : {}) });
    await this.afterInstall(installed);
    return installed;
  }

  private async runInstall(agent: RegistryAgent): Promise<Installed | undefined> {
    const updating = this.current(agent.id);
    const title = updating ? vscode.l10n.t('Updating {0} to {1}', agent.name, agent.version) : vscode.l10n.t('Installing {0} {1}', agent.name, agent.version);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          let reported = 0;
          const installed = await this.installer.install(agent, {
            platform: currentPlatform(),
            signal: controller.signal,
            ...(await this.tools()),
            onStep: (step) => {
              if (step.received !== undefined) {
                const increment = step.total ? ((step.received - reported) / step.total) * 100 : undefined;
                reported = step.received;
                progress.report({ message: step.total ? vscode.l10n.t('{0}: {1} of {2}', step.message, formatBytes(step.received), formatBytes(step.total)) : `${step.message}: ${formatBytes(step.received)}`, increment });
              } else progress.report({ message: step.message });
            },
          });
          await this.afterInstall(installed);
          return installed;
        } finally {
          subscription.dispose();
        }
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof InstallError && error.failure === 'cancelled') void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0}', message));
      else void vscode.window.showErrorMessage(updating ? vscode.l10n.t('Howdah: updating {0} failed. {1}', agent.name, message) : vscode.l10n.t('Howdah: installing {0} failed. {1}', agent.name, message));
      return undefined;
    }
  }

  private async afterInstall(installed: Installed): Promise<void> {
    this.installs = await this.installer.list();
    this.changed.fire();
    await this.pruneOld(installed.id);
  }

  /** Deletes the versions older than the newest that no session uses. */
  private async pruneOld(id: string): Promise<void> {
    const newest = this.current(id);
    if (!newest) return;
    const old = (this.installs.get(id) ?? []).filter((i) => i.version !== newest.version && !this.inUse(id, i.version));
    if (old.length === 0) return;
    for (const o of old) await this.installer.remove(id, o.version);
    this.installs = await this.installer.list();
    this.changed.fire();
  }

  /** Deletes an agent's folder (every version). Refused while a session runs it. */
  async remove(id: string): Promise<void> {
    if (this.inUse(id)) throw new Error(vscode.l10n.t('a session is running it; close that session first'));
    await this.installer.remove(id);
    this.installs = await this.installer.list();
    this.changed.fire();
  }

  /** The user's npm and uvx, found the way agents' commands are (PATH, the usual folders, the login shell's PATH). */
  private async tools(): Promise<{ npm?: string; uvx?: string }> {
    const find = async (name: string) => {
      const r = systemResolutionEnv();
      const found = resolveCommand(name, r);
      if (found) return found.path;
      this.loginShellPath ??= readLoginShellPath();
      return resolveCommand(name, r, await this.loginShellPath)?.path;
    };
    return { npm: await find('npm'), uvx: await find('uvx') };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function formatBytes(n: number): string {
  return n < 1024 * 1024 ? vscode.l10n.t('{0} KB', (n / 1024).toFixed(0)) : vscode.l10n.t('{0} MB', (n / 1024 / 1024).toFixed(1));
}
