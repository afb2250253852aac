import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { archiveKind, extractArchive, prepareCommand } from './archive';
import { download } from './download';
import { cancelled, diskProblem, InstallError, UV_HINT } from './installErrors';
import { npmBin, npmInstall } from './packageManagers';
import { installMethod, splitPythonSpec, type Platform, type RegistryAgent } from './registryFormat';
import * as l10n from '@vscode/l10n';

/**
 * Installs registry agents into Howdah's own storage, `<root>/<id>/<version>/`, never globally. Everything happens in
 * a temporary folder beside the target, renamed into place only when complete, so a failed or cancelled install
 * leaves nothing half-installed. Each install folder holds `howdah-install.json`: how to start what is in it.
 * No `vscode` here: the extension's progress notification and its storage folder are passed in.
 */
export const MANIFEST = 'howdah-install.json';

const ManifestSchema = z.looseObject({
  id: z.string(),
  version: z.string(),
  method: z.enum(['binary', 'npx', 'uvx']),
  /** Relative to the install folder for `binary` and `npx`; the program's name (looked up on PATH) for `uvx`. */
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  installedAt: z.string(),
});
export type InstallManifest = z.output<typeof ManifestSchema>;

export interface Installed extends InstallManifest {
  readonly dir: string;
  /** The command to spawn: an absolute path inside `dir`, or `uvx`. */
  readonly executable: string;
}

export interface InstallStep {
  readonly message: string;
  /** Bytes so far and in all, while downloading. */
  readonly received?: number;
  readonly total?: number;
}

export interface InstallOptions {
  readonly platform: Platform | undefined;
  readonly signal: AbortSignal;
  readonly onStep?: (step: InstallStep) => void;
  /** The user's npm and uvx, resolved by the caller (undefined: not found). */
  readonly npm?: string;
  readonly uvx?: string;
}

export class AgentInstaller {
  constructor(readonly root: string) {}

  dirOf(id: string, version?: string): string {
    return version === undefined ? path.join(this.root, id) : path.join(this.root, id, version);
  }

  /** Installs `agent` at its registry version; an install already there is returned as it is. */
  async install(agent: RegistryAgent, options: InstallOptions): Promise<Installed> {
    const existing = await this.installed(agent.id, agent.version);
    if (existing) return existing;
    const method = installMethod(agent, options.platform);
    if (!method) {
      const built = Object.keys(agent.distribution.binary ?? {}).join(', ') || l10n.t('no platform');
      throw new InstallError('platform', l10n.t('{0} is not available for {1}: it is built for {2}, with no npm or uv package.', agent.name, options.platform ?? `${process.platform}-${process.arch}`, built));
    }
    if (options.signal.aborted) throw cancelled();
    const target = this.dirOf(agent.id, agent.version);
    const temp = path.join(this.root, agent.id, `.installing-${agent.version}-${randomBytes(4).toString('hex')}`);
    try {
      await fs.promises.mkdir(temp, { recursive: true });
      let manifest: InstallManifest;
      const base = { id: agent.id, version: agent.version, installedAt: new Date().toISOString() };
      switch (method.kind) {
        case 'binary': {
          const { target: t } = method;
          const kind = archiveKind(t.archive);
          const file = path.join(temp, '.download');
          options.onStep?.({ message: l10n.t('Downloading {0} {1}', agent.name, agent.version) });
          await download(t.archive, file, { signal: options.signal, sha256: t.sha256, onProgress: (p) => options.onStep?.({ message: l10n.t('Downloading {0} {1}', agent.name, agent.version), ...p }) });
          if (options.signal.aborted) throw cancelled();
          options.onStep?.({ message: l10n.t('Unpacking {0}', agent.name) });
          const rawName = path.posix.basename(t.cmd.replace(/\\/g, '/'));
          await extractArchive(file, kind, path.join(temp, 'files'), rawName);
          await fs.promises.rm(file, { force: true });
          const command = path.join('files', await prepareCommand(path.join(temp, 'files'), t.cmd));
          manifest = { ...base, method: 'binary', command, args: t.args ?? [], env: t.env ?? {} };
          break;
        }
        case 'npx': {
          options.onStep?.({ message: l10n.t('Installing {0} with npm', method.spec.package) });
          await npmInstall(options.npm, temp, method.spec.package, { signal: options.signal, onLine: (line) => options.onStep?.({ message: `npm: ${line.slice(0, 120)}` }) });
          const command = await npmBin(temp, method.spec.package, method.spec.cmd);
          manifest = { ...base, method: 'npx', command, args: method.spec.args ?? [], env: method.spec.env ?? {} };
          break;
        }
        case 'uvx': {
          if (!options.uvx) throw new InstallError('missing-tool', l10n.t('{0} runs with uv, which was not found. {1}', agent.name, UV_HINT));
          const { name, version } = splitPythonSpec(method.spec.package);
          const from = `${name}==${version ?? agent.version}`;
          manifest = { ...base, method: 'uvx', command: 'uvx', args: ['--from', from, method.spec.cmd ?? name, ...(method.spec.args ?? [])], env: method.spec.env ?? {} };
          break;
        }
      }
      if (options.signal.aborted) throw cancelled();
      await fs.promises.writeFile(path.join(temp, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      await fs.promises.rm(target, { recursive: true, force: true });
      await fs.promises.rename(temp, target);
      return toInstalled(manifest, target);
    } catch (error) {
      await fs.promises.rm(temp, { recursive: true, force: true }).catch(() => undefined);
      // The agent's own folder too, when this install was all it would have held.
      await fs.promises.rmdir(this.dirOf(agent.id)).catch(() => undefined);
      if (options.signal.aborted && !(error instanceof InstallError && error.failure === 'cancelled')) throw cancelled();
      const disk = diskProblem(error);
      if (disk && !(error instanceof InstallError)) throw new InstallError('disk', l10n.t('Installing {0} failed: {1}.', agent.name, disk), { cause: error });
      throw error;
    }
  }

  /** The install of `id` at `version`, when complete (a manifest that reads). */
  async installed(id: string, version: string): Promise<Installed | undefined> {
    const dir = this.dirOf(id, version);
    try {
      const parsed = ManifestSchema.safeParse(JSON.parse(await fs.promises.readFile(path.join(dir, MANIFEST), 'utf8')));
      return parsed.success && parsed.data.id === id && parsed.data.version === version ? toInstalled(parsed.data, dir) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every complete install, by agent id. */
  async list(): Promise<Map<string, Installed[]>> {
    const result = new Map<string, Installed[]>();
    for (const id of await readDir(this.root)) {
      if (id.startsWith('.')) continue;
      const versions: Installed[] = [];
      for (const version of await readDir(this.dirOf(id))) {
        if (version.startsWith('.')) continue;
        const found = await this.installed(id, version);
        if (found) versions.push(found);
      }
      if (versions.length) result.set(id, versions);
    }
    return result;
  }

  /** Deletes one version, or (without one) the agent's whole folder. */
  async remove(id: string, version?: string): Promise<void> {
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(id) || (version !== undefined && !/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(version))) throw new Error(l10n.t('Not an installed agent: {0} {1}', id, version ?? ''));
    await fs.promises.rm(this.dirOf(id, version), { recursive: true, force: true });
  }
}

function toInstalled(manifest: InstallManifest, dir: string): Installed {
  return { ...manifest, dir, executable: manifest.method === 'uvx' ? manifest.command : path.join(dir, manifest.command) };
}

async function readDir(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch {
    return [];
  }
}
