import { z } from 'zod';
import * as l10n from '@vscode/l10n';

/** An agent the user can start: from `howdah.agents` (and, later, the built-in catalog). */
export interface AgentDefinition {
  /** The settings key; an agent is identified by its launch command, never by the name it reports. */
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

const AgentSetting = z.object({
  name: z.string().optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});

/** Parses `howdah.agents`; an invalid entry is reported, not fatal for the others. */
export function parseAgentSettings(raw: unknown): { agents: AgentDefinition[]; problems: string[] } {
  const agents: AgentDefinition[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { agents, problems: [l10n.t('howdah.agents must be an object keyed by agent id')] };
  for (const [id, value] of Object.entries(raw)) {
    const parsed = AgentSetting.safeParse(value);
    if (!parsed.success) {
      problems.push(`howdah.agents.${id}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
      continue;
    }
    const { name, command, args, env, cwd } = parsed.data;
    agents.push({ id, name: name ?? id, command, args: args ?? [], env: env ?? {}, cwd });
  }
  return { agents, problems };
}
