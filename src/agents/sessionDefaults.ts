import type { ConfigOption, SessionModeState, SessionModelState } from '../acp/schema/sessionConfig';

/**
 * `howdah.sessionDefaults`: per agent, the modes and config values the user picked last, re-applied to every new
 * session of that agent. Keys are config option ids, or `mode` / `model` for the legacy pickers.
 */
export type SessionDefaults = Record<string, Record<string, string | boolean>>;

export interface DefaultChange {
  kind: 'config' | 'mode' | 'model';
  id: string;
  value: string | boolean;
}

/**
 * What to send to make a new session match the user's defaults: only values the session offers and does not
 * already have. Config options win over the legacy `modes`/`models` when both name the same thing.
 */
export function changesForDefaults(
  wanted: Readonly<Record<string, string | boolean>> | undefined,
  state: { configOptions: readonly ConfigOption[]; modes: SessionModeState | undefined; models: SessionModelState | undefined },
): DefaultChange[] {
  if (!wanted) return [];
  const changes: DefaultChange[] = [];
  const handled = new Set<string>();
  for (const option of state.configOptions) {
    const value = wanted[option.id] ?? (option.category === 'mode' ? wanted.mode : option.category === 'model' ? wanted.model : undefined);
    if (value === undefined) continue;
    if (option.category === 'mode' || option.category === 'model') handled.add(option.category);
    if (option.currentValue === value || !offers(option, value)) continue;
    changes.push({ kind: 'config', id: option.id, value });
  }
  const mode = wanted.mode;
  if (!handled.has('mode') && typeof mode === 'string' && state.modes && state.modes.currentModeId !== mode && state.modes.availableModes.some((m) => m.id === mode)) {
    changes.push({ kind: 'mode', id: 'mode', value: mode });
  }
  const model = wanted.model;
  if (!handled.has('model') && typeof model === 'string' && state.models && state.models.currentModelId !== model && state.models.availableModels.some((m) => m.modelId === model)) {
    changes.push({ kind: 'model', id: 'model', value: model });
  }
  return changes;
}

function offers(option: ConfigOption, value: string | boolean): boolean {
  if (option.type === 'boolean') return typeof value === 'boolean';
  if (typeof value !== 'string') return false;
  const values = option.options.kind === 'flat' ? option.options.options : option.options.groups.flatMap((g) => g.options);
  return values.some((o) => o.value === value);
}

/** Records the user's pick so the next session of this agent starts with it. */
export function rememberChoice(defaults: SessionDefaults, agentId: string, key: string, value: string | boolean): SessionDefaults {
  return { ...defaults, [agentId]: { ...defaults[agentId], [key]: value } };
}
