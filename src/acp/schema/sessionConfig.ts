import { z } from 'zod';
import { list, Meta, openEnum, opt } from './lenient';

/** DIGEST §14: modes (legacy), config options (preferred) and the legacy `models` (§24). */
export const SessionMode = z.looseObject({ id: z.string(), name: z.string(), description: opt(z.string()), _meta: Meta });
export const SessionModeState = z.looseObject({ currentModeId: z.string(), availableModes: list(SessionMode), _meta: Meta });
export type SessionMode = z.output<typeof SessionMode>;
export type SessionModeState = z.output<typeof SessionModeState>;

export const SelectOption = z.looseObject({ value: z.string(), name: z.string(), description: opt(z.string()), _meta: Meta });
export const SelectGroup = z.looseObject({ group: z.string(), name: z.string(), options: list(SelectOption), _meta: Meta });
export type SelectOption = z.output<typeof SelectOption>;
export type SelectGroup = z.output<typeof SelectGroup>;

export const CONFIG_CATEGORIES = ['mode', 'model', 'model_config', 'thought_level'] as const;
const configCommon = {
  id: z.string(),
  name: z.string(),
  description: opt(z.string()),
  category: opt(openEnum(CONFIG_CATEGORIES)),
  _meta: Meta,
};
/** Flat options and groups are told apart by the `group` key of the elements. */
const SelectOptions = z.array(z.unknown()).transform((items) => {
  const grouped = items.some((item) => typeof item === 'object' && item !== null && 'group' in item);
  return grouped
    ? { kind: 'grouped' as const, groups: list(SelectGroup).parse(items) }
    : { kind: 'flat' as const, options: list(SelectOption).parse(items) };
});
export const SelectConfigOption = z.looseObject({ ...configCommon, type: z.literal('select'), currentValue: z.string(), options: SelectOptions });
export const BooleanConfigOption = z.looseObject({ ...configCommon, type: z.literal('boolean'), currentValue: z.boolean() });
export type SelectConfigOption = z.output<typeof SelectConfigOption>;
export type BooleanConfigOption = z.output<typeof BooleanConfigOption>;
export type ConfigOption = SelectConfigOption | BooleanConfigOption;

/** Options of an unknown `type` are ignored (the agent keeps its default, DIGEST §14); the array order is kept. */
export const ConfigOptions = z.array(z.unknown()).transform((items) => {
  const out: ConfigOption[] = [];
  for (const item of items) {
    const type = typeof item === 'object' && item !== null ? (item as { type?: unknown }).type : undefined;
    const schema = type === 'select' ? SelectConfigOption : type === 'boolean' ? BooleanConfigOption : undefined;
    const parsed = schema?.safeParse(item);
    if (parsed?.success) out.push(parsed.data as ConfigOption);
  }
  return out;
});

export const ModelInfo = z.looseObject({ modelId: z.string(), name: z.string(), description: opt(z.string()), _meta: Meta });
export const SessionModelState = z.looseObject({ currentModelId: z.string(), availableModels: list(ModelInfo), _meta: Meta });
export type SessionModelState = z.output<typeof SessionModelState>;

/** What session/new, load, resume (and fork) answer besides the id. */
export const sessionStateFields = {
  modes: opt(SessionModeState),
  configOptions: opt(ConfigOptions),
  models: opt(SessionModelState),
  _meta: Meta,
};
