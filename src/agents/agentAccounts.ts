import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCOUNT_HOMES, accountId, parseAccounts, type AccountRecord } from './accountHomes';

const KEY = 'howdah.accounts';

/**
 * The user's extra accounts (accountHomes.ts), kept in global state; each one's config home is its own folder under
 * global storage, `accounts/<id>/`, created when the account is added and deleted when it is removed.
 */
export class AgentAccounts implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly storage: vscode.Uri,
  ) {}

  list(): AccountRecord[] {
    return parseAccounts(this.state.get(KEY));
  }

  /** The environment an account's agent starts with: its config home variable set to its folder. */
  envOf(record: AccountRecord): Record<string, string> {
    const home = ACCOUNT_HOMES[record.baseId];
    return home ? { [home.variable]: this.folderOf(record) } : {};
  }

  folderOf(record: AccountRecord): string {
    return path.join(this.storage.fsPath, 'accounts', record.id);
  }

  async add(baseId: string, label: string): Promise<AccountRecord> {
    const existing = this.list();
    let id = accountId(baseId, label);
    for (let n = 2; existing.some((r) => r.id === id); n++) id = `${accountId(baseId, label)}-${n}`;
    const record = { id, baseId, label };
    await fs.promises.mkdir(this.folderOf(record), { recursive: true });
    await this.state.update(KEY, [...existing, record]);
    this.changed.fire();
    return record;
  }

  async remove(id: string): Promise<void> {
    const record = this.list().find((r) => r.id === id);
    if (!record) return;
    await this.state.update(KEY, this.list().filter((r) => r.id !== id));
    await fs.promises.rm(this.folderOf(record), { recursive: true, force: true });
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
