import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import * as l10n from '@vscode/l10n';

/**
 * Fetching the published registry and keeping the copy Howdah falls back to. Icons are fetched with it and inlined
 * as `data:` URIs (small SVGs, size-capped), so the panel never loads anything from the network and shows the same
 * icons offline. No `vscode` here.
 */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
const MAX_REGISTRY_BYTES = 8 << 20;
const MAX_ICON_BYTES = 64 << 10;

export interface CachedRegistry {
  readonly url: string;
  readonly fetchedAt: number;
  /** The registry document as fetched, icons inlined; parsed again on every load with the same parser. */
  readonly registry: unknown;
}

const CacheSchema = z.looseObject({ url: z.string(), fetchedAt: z.number(), registry: z.unknown() });

async function fetchBytes(url: string, signal: AbortSignal, limit: number): Promise<Buffer> {
  const response = await fetch(url, { signal, redirect: 'follow' });
  if (!response.ok) throw new Error(l10n.t('{0} answered {1} {2}', url, response.status, response.statusText));
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > limit) throw new Error(l10n.t('{0} is larger than {1} bytes', url, limit));
  return body;
}

export const isInlineSvg = (icon: unknown): icon is string => typeof icon === 'string' && /^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/.test(icon) && icon.length < MAX_ICON_BYTES * 1.4;

/**
 * The registry at `url`, each agent's icon inlined (fetched relative to the registry's URL); an icon that cannot be
 * fetched takes `knownIcons`' one for the same id, else none. Throws when the registry itself cannot be fetched.
 */
export async function fetchRegistry(url: string, signal: AbortSignal, knownIcons: ReadonlyMap<string, string>): Promise<unknown> {
  const raw = JSON.parse((await fetchBytes(url, signal, MAX_REGISTRY_BYTES)).toString('utf8')) as unknown;
  const agents = (raw as { agents?: unknown } | null)?.agents;
  if (!Array.isArray(agents)) return raw;
  await Promise.all(
    agents.map(async (agent: unknown) => {
      if (typeof agent !== 'object' || agent === null) return;
      const entry = agent as { id?: unknown; icon?: unknown };
      const known = typeof entry.id === 'string' ? knownIcons.get(entry.id) : undefined;
      if (isInlineSvg(entry.icon)) return;
      if (typeof entry.icon !== 'string') return void delete entry.icon;
      try {
        const iconUrl = new URL(entry.icon, url);
        if (iconUrl.protocol !== 'https:' && iconUrl.protocol !== 'http:') throw new Error(l10n.t('not http(s)'));
        const svg = await fetchBytes(iconUrl.href, signal, MAX_ICON_BYTES);
        if (!/<svg[\s>]/i.test(svg.toString('utf8'))) throw new Error(l10n.t('not an SVG'));
        entry.icon = `data:image/svg+xml;base64,${svg.toString('base64')}`;
      } catch {
        if (known) entry.icon = known;
        else delete entry.icon;
      }
    }),
  );
  return raw;
}

export async function readCache(file: string): Promise<CachedRegistry | undefined> {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(await fs.promises.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside and renamed over, so a reload mid-write leaves the old copy, never half of one. */
export async function writeCache(file: string, cache: CachedRegistry): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(temp, JSON.stringify(cache));
  await fs.promises.rename(temp, file);
}
