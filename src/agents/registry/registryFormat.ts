import { z } from 'zod';
import * as l10n from '@vscode/l10n';

/**
 * The ACP registry's format (agentclientprotocol/registry, FORMAT.md and agent.schema.json), parsed once here. Lenient
 * where the registry may grow: unknown fields are kept on every object, an unknown platform key is kept but never
 * chosen. Strict where Howdah acts on a value: a command, an archive URL, a checksum. A broken entry (or one broken
 * platform of an entry) is left out with a problem naming it and what was wrong; it never costs the other entries.
 * No `vscode` here: unit-tested and fuzzed in plain Node.
 */
export const PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type Platform = (typeof PLATFORMS)[number];

const stringList = z.array(z.string());
const stringMap = z.record(z.string(), z.string());
const webUrl = z.string().refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'must be an http(s) URL');

const BinaryTargetSchema = z.looseObject({
  archive: webUrl,
  cmd: z.string().min(1),
  args: stringList.optional(),
  env: stringMap.optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits')
    .transform((s) => s.toLowerCase())
    .optional(),
});
export type BinaryTarget = z.output<typeof BinaryTargetSchema>;

const PackageSchema = z.looseObject({
  package: z.string().min(1),
  cmd: z.string().min(1).optional(),
  args: stringList.optional(),
  env: stringMap.optional(),
});
export type PackageDistribution = z.output<typeof PackageSchema>;

const AgentSchema = z.looseObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens'),
  name: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+/, 'must start with MAJOR.MINOR.PATCH'),
  description: z.string(),
  repository: z.string().optional(),
  website: z.string().optional(),
  authors: stringList.optional(),
  license: z.string().optional(),
  icon: z.string().optional(),
  distribution: z.looseObject({
    binary: z.record(z.string(), z.unknown()).optional(),
    npx: PackageSchema.optional(),
    uvx: PackageSchema.optional(),
  }),
});

export interface RegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly repository?: string;
  readonly website?: string;
  readonly authors: readonly string[];
  readonly license?: string;
  /** As published: a URL, a path relative to the registry, or (in the snapshot and the cache) a `data:` URI. */
  readonly icon?: string;
  readonly distribution: {
    readonly binary?: Readonly<Partial<Record<Platform, BinaryTarget>>>;
    readonly npx?: PackageDistribution;
    readonly uvx?: PackageDistribution;
  };
  /** The entry as published, unknown fields included. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface ParsedRegistry {
  readonly version: string;
  readonly agents: readonly RegistryAgent[];
  /** One line per entry (or part of one) left out: which, and why. */
  readonly problems: readonly string[];
}

const TopSchema = z.looseObject({ version: z.string().optional(), agents: z.array(z.unknown()) });

const describe = (error: z.ZodError): string =>
  error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(entry)'}: ${i.message}`).join('; ');

/** The registry document; throws only when it is not one at all (not an object, or no `agents` list). */
export function parseRegistry(raw: unknown): ParsedRegistry {
  const top = TopSchema.safeParse(raw);
  if (!top.success) throw new Error(l10n.t('Not an ACP registry: {0}', describe(top.error)));
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  top.data.agents.forEach((entry, index) => {
    const result = parseAgent(entry, index);
    problems.push(...result.problems);
    if (!result.agent) return;
    if (seen.has(result.agent.id)) {
      problems.push(`registry agent "${result.agent.id}": listed twice; the first one is kept`);
      return;
    }
    seen.add(result.agent.id);
    agents.push(result.agent);
  });
  return { version: top.data.version ?? '', agents, problems };
}

/** What names an entry in a problem: its id when it has a readable one, else its place in the list. */
function entryName(entry: unknown, index: number): string {
  const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length > 0 && id.length < 100 ? `registry agent "${id}"` : `registry agent #${index + 1}`;
}

export function parseAgent(entry: unknown, index = 0): { agent?: RegistryAgent; problems: string[] } {
  const name = entryName(entry, index);
  const parsed = AgentSchema.safeParse(entry);
  if (!parsed.success) return { problems: [`${name} left out: ${describe(parsed.error)}`] };
  const data = parsed.data;
  const problems: string[] = [];
  let binary: Partial<Record<Platform, BinaryTarget>> | undefined;
  for (const [platform, value] of Object.entries(data.distribution.binary ?? {})) {
    // A platform this version of Howdah does not know is kept in `raw` and never chosen.
    if (!(PLATFORMS as readonly string[]).includes(platform)) continue;
    const target = BinaryTargetSchema.safeParse(value);
    if (!target.success) {
      problems.push(`${name}: its ${platform} download left out: ${describe(target.error)}`);
      continue;
    }
    (binary ??= {})[platform as Platform] = target.data;
  }
  const { npx, uvx } = data.distribution;
  if (!binary && !npx && !uvx) {
    problems.push(`${name} left out: no way to install it (no usable binary, npx or uvx distribution)`);
    return { problems };
  }
  const agent: RegistryAgent = {
    id: data.id,
    name: data.name,
    version: data.version,
    description: data.description,
    ...(data.repository !== undefined ? { repository: data.repository } : {}),
    ...(data.website !== undefined ? { website: data.website } : {}),
    authors: data.authors ?? [],
    ...(data.license !== undefined ? { license: data.license } : {}),
    ...(data.icon !== undefined ? { icon: data.icon } : {}),
    distribution: { ...(binary ? { binary } : {}), ...(npx ? { npx } : {}), ...(uvx ? { uvx } : {}) },
    raw: data,
  };
  return { agent, problems };
}

/** `@scope/name@1.2.3` → name and version; a spec without a version has none. */
export function splitNpmSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  if (at <= 0) return { name: spec };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) || undefined };
}

/** `name==1.2.3`, `name@1.2.3` or `name` (uvx's spellings) → name and version. */
export function splitPythonSpec(spec: string): { name: string; version?: string } {
  const match = /^([^=@<>~!\s]+)\s*(?:==|@)\s*([^\s]+)$/.exec(spec.trim());
  return match ? { name: match[1]!, version: match[2]! } : { name: spec.trim() };
}

/** How an agent is distributed for `platform`, in the order Howdah prefers: a binary, then npm, then uv. */
export type InstallMethod =
  | { readonly kind: 'binary'; readonly platform: Platform; readonly target: BinaryTarget }
  | { readonly kind: 'npx'; readonly spec: PackageDistribution }
  | { readonly kind: 'uvx'; readonly spec: PackageDistribution };

export function installMethod(agent: RegistryAgent, platform: Platform | undefined): InstallMethod | undefined {
  const target = platform ? agent.distribution.binary?.[platform] : undefined;
  if (platform && target) return { kind: 'binary', platform, target };
  if (agent.distribution.npx) return { kind: 'npx', spec: agent.distribution.npx };
  if (agent.distribution.uvx) return { kind: 'uvx', spec: agent.distribution.uvx };
  return undefined;
}

/** The ways an agent is distributed, for display ("binary (linux-x86_64, …)", "npm", "uv"). */
export function distributionKinds(agent: RegistryAgent): ('binary' | 'npx' | 'uvx')[] {
  return (['binary', 'npx', 'uvx'] as const).filter((k) => agent.distribution[k] !== undefined);
}
