import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_REGISTRY_URL, fetchRegistry, readCache, writeCache, type CachedRegistry } from './registry/registryFetch';
import { parseRegistry, type RegistryAgent } from './registry/registryFormat';
import snapshot from './registry/snapshot.json';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The ACP registry as Howdah knows it now, offline first: the snapshot shipped in the .vsix, replaced by the cached
 * copy from global storage once read, replaced by a fresh fetch of `howdah.registry.url` (in the background, at most
 * once a day; at once when the setting changes or on "Howdah: Refresh Agent Registry"; never when it is empty).
 * `agents()` answers at once from what is there: nothing waits for the network. A fetch that fails keeps what was
 * there; broken entries are left out, each named in the "Howdah: Agent Registry" output channel.
 */
export class RegistryService implements vscode.Disposable {
  private current: readonly RegistryAgent[];
  private from: { kind: 'snapshot' | 'cache' | 'network'; at?: number; url?: string };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly log = vscode.window.createOutputChannel(vscode.l10n.t('Howdah: Agent Registry'), { log: true });
  private inFlight: Promise<string> | undefined;
  private readonly abort = new AbortController();
  private readonly cacheFile: string;
  private reported = '';

  constructor(storage: vscode.Uri) {
    this.cacheFile = path.join(storage.fsPath, 'registry', 'registry.json');
    this.current = this.parse(snapshot.registry, vscode.l10n.t('the snapshot built from {0} ({1})', snapshot.builtFrom.commit.slice(0, 12), snapshot.builtFrom.date));
    this.from = { kind: 'snapshot', at: Date.parse(snapshot.builtFrom.date) };
    this.subscriptions.push(
      this.changed,
      this.log,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('howdah.registry.url')) void this.refresh(true);
      }),
    );
    // Checked hourly; fetched only when the copy is a day old.
    const timer = setInterval(() => void this.refresh(false), 60 * 60 * 1000);
    this.subscriptions.push({ dispose: () => clearInterval(timer) });
  }

  /** Reads the cache, then refreshes in the background when it is older than a day or from another URL. */
  async start(): Promise<void> {
    const cached = await readCache(this.cacheFile);
    if (cached) this.adopt(cached, 'cache');
    void this.refresh(false);
  }

  agents(): readonly RegistryAgent[] {
    return this.current;
  }

  find(id: string): RegistryAgent | undefined {
    return this.current.find((a) => a.id === id);
  }

  /** Where the list came from, for the user: "the registry fetched …", "the copy cached …", "the snapshot …". */
  describeSource(): string {
    const when = this.from.at ? new Date(this.from.at).toISOString().slice(0, 16).replace('T', ' ') : vscode.l10n.t('unknown');
    if (this.from.kind === 'snapshot') return vscode.l10n.t('the registry snapshot shipped with Howdah ({0})', when);
    return this.from.kind === 'network' ? vscode.l10n.t('{0} (fetched {1} UTC)', this.from.url ?? '', when) : vscode.l10n.t('{0} (cached {1} UTC)', this.from.url ?? '', when);
  }

  /**
   * Fetches the registry when due (`force`: now); resolves to what happened, in words. One fetch at a time: a second
   * call joins the one under way.
   */
  refresh(force: boolean): Promise<string> {
    if (this.inFlight) return this.inFlight;
    const url = this.url();
    if (!url) return Promise.resolve(vscode.l10n.t('howdah.registry.url is empty: the registry is not fetched.'));
    const fresh = this.from.kind !== 'snapshot' && this.from.url === url && this.from.at !== undefined && Date.now() - this.from.at < DAY;
    if (!force && fresh) return Promise.resolve(vscode.l10n.t('The registry was fetched less than a day ago from {0}.', url));
    this.inFlight = (async () => {
      try {
        const knownIcons = new Map(this.current.flatMap((a) => (a.icon?.startsWith('data:') ? [[a.id, a.icon] as const] : [])));
        const registry = await fetchRegistry(url, AbortSignal.any([this.abort.signal, AbortSignal.timeout(60_000)]), knownIcons);
        const cache: CachedRegistry = { url, fetchedAt: Date.now(), registry };
        this.adopt(cache, 'network');
        await writeCache(this.cacheFile, cache).catch((error: unknown) => this.log.warn(`Could not cache the registry: ${String(error)}`));
        return vscode.l10n.t('Fetched {0} agents from {1}.', this.current.length, url);
      } catch (error) {
        const message = vscode.l10n.t('Could not fetch the agent registry from {0}: {1}. Using {2}.', url, error instanceof Error ? error.message : String(error), this.describeSource());
        this.log.warn(message);
        return message;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  private url(): string {
    return (vscode.workspace.getConfiguration('howdah').get<string>('registry.url', DEFAULT_REGISTRY_URL) ?? '').trim();
  }

  private adopt(cache: CachedRegistry, kind: 'cache' | 'network'): void {
    let agents: readonly RegistryAgent[];
    try {
      agents = this.parse(cache.registry, cache.url);
    } catch (error) {
      // Not a registry at all: keep what we have (the snapshot or the previous copy).
      this.log.warn(`${cache.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (kind === 'network') throw error;
      return;
    }
    this.current = agents;
    this.from = { kind, at: cache.fetchedAt, url: cache.url };
    this.changed.fire();
  }

  private parse(raw: unknown, source: string): readonly RegistryAgent[] {
    const parsed = parseRegistry(raw);
    const report = parsed.problems.join('\n');
    if (report && report !== this.reported) {
      this.reported = report;
      for (const problem of parsed.problems) this.log.warn(`${source}: ${problem}`);
    }
    return parsed.agents;
  }

  dispose(): void {
    this.abort.abort();
    for (const s of this.subscriptions) s.dispose();
  }
}
