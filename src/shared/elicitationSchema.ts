import { z } from 'zod';
import { looksSecret, MAX_FIELDS, type ChoiceModel, type FieldCommon, type FieldModel, type FormModel } from './elicitationForm';

/**
 * The agent's `requestedSchema` (DIGEST §19: an object schema whose properties are strings, numbers, booleans,
 * enums and multi-selects) parsed once into the form model. Lenient like the rest of the protocol layer: a bad
 * optional keyword (a `maxLength` of "ten") is dropped, a default that does not fit its field is dropped, and a
 * property of an unknown type — or a known type too broken to render — becomes an `unknown` field carrying its raw
 * schema. Only the outer shape is strict: no object with `properties`, no form. The host runs this; the page never
 * does (it gets the model), so zod stays out of the webview bundle.
 */

const text = z.string().max(10_000);
const optText = text.optional().catch(undefined);
const count = z.number().int().nonnegative().optional().catch(undefined);
const finite = z.number().refine(Number.isFinite).optional().catch(undefined);

const Titled = z.looseObject({ const: z.string(), title: optText, description: optText });

const StringProperty = z.looseObject({
  type: z.literal('string'),
  title: optText,
  description: optText,
  minLength: count,
  maxLength: count,
  pattern: optText,
  format: optText,
  default: z.string().optional().catch(undefined),
  enum: z.array(z.string()).optional().catch(undefined),
  // An older MCP revision's labels for `enum`; still sent by some servers agents relay.
  enumNames: z.array(z.string()).optional().catch(undefined),
  oneOf: z.array(z.unknown()).optional().catch(undefined),
});

const NumberProperty = z.looseObject({
  type: z.enum(['number', 'integer']),
  title: optText,
  description: optText,
  minimum: finite,
  maximum: finite,
  default: finite,
});

const BooleanProperty = z.looseObject({ type: z.literal('boolean'), title: optText, description: optText, default: z.boolean().optional().catch(undefined) });

const ArrayProperty = z.looseObject({
  type: z.literal('array'),
  title: optText,
  description: optText,
  minItems: count,
  maxItems: count,
  items: z.looseObject({ type: z.literal('string').optional(), enum: z.array(z.string()).optional().catch(undefined), anyOf: z.array(z.unknown()).optional().catch(undefined) }),
  default: z.array(z.string()).optional().catch(undefined),
});

const ObjectSchema = z.looseObject({
  type: z.literal('object').optional().catch('object'),
  title: optText,
  description: optText,
  properties: z.record(z.string(), z.unknown()),
  required: z.array(z.string()).optional().catch(undefined),
});

/** The titled options of a `oneOf`/`anyOf` list; invalid items are skipped. */
function titledChoices(items: readonly unknown[] | undefined): ChoiceModel[] {
  const out: ChoiceModel[] = [];
  for (const item of items ?? []) {
    const parsed = Titled.safeParse(item);
    if (parsed.success) out.push({ value: parsed.data.const, label: parsed.data.title ?? parsed.data.const, ...(parsed.data.description ? { description: parsed.data.description } : {}) });
  }
  return out;
}

function plainChoices(values: readonly string[], labels?: readonly string[]): ChoiceModel[] {
  return values.map((value, i) => ({ value, label: labels?.[i] ?? value }));
}

function rawJson(value: unknown): string {
  try {
    const json = JSON.stringify(value, null, 2) ?? String(value);
    return json.length > 5_000 ? `${json.slice(0, 5_000)}\n…` : json;
  } catch {
    return String(value);
  }
}

function field(name: string, raw: unknown, required: boolean): FieldModel {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const title = typeof record.title === 'string' && record.title.trim() !== '' ? record.title : undefined;
  const description = typeof record.description === 'string' && record.description !== '' ? record.description : undefined;
  const common: FieldCommon = { name, label: title ?? name, ...(description ? { description } : {}), required, secret: looksSecret(name, title, description) };
  const unknown = (): FieldModel => ({ ...common, kind: 'unknown', type: typeof record.type === 'string' ? record.type : typeof raw === 'object' ? 'no type' : typeof raw, raw: rawJson(raw) });
  switch (record.type) {
    case 'string': {
      const p = StringProperty.safeParse(raw);
      if (!p.success) return unknown();
      const s = p.data;
      const options = s.oneOf ? titledChoices(s.oneOf) : s.enum ? plainChoices(s.enum, s.enumNames?.length === s.enum.length ? s.enumNames : undefined) : undefined;
      if (options) {
        if (options.length === 0) return unknown();
        const fallback = s.default !== undefined && options.some((o) => o.value === s.default) ? s.default : undefined;
        return { ...common, kind: 'select', options, ...(fallback !== undefined ? { default: fallback } : {}) };
      }
      const bounded = s.minLength !== undefined && s.maxLength !== undefined && s.minLength > s.maxLength ? { minLength: s.minLength } : { minLength: s.minLength, maxLength: s.maxLength };
      return {
        ...common,
        kind: 'text',
        ...defined({ ...bounded, pattern: s.pattern, format: s.format, default: s.default }),
      };
    }
    case 'number':
    case 'integer': {
      const p = NumberProperty.safeParse(raw);
      if (!p.success) return unknown();
      const integer = p.data.type === 'integer';
      const fits = (v: number | undefined) => v !== undefined && (!integer || Number.isInteger(v)) && (p.data.minimum === undefined || v >= p.data.minimum) && (p.data.maximum === undefined || v <= p.data.maximum);
      return { ...common, kind: 'number', integer, ...defined({ minimum: p.data.minimum, maximum: p.data.maximum, default: fits(p.data.default) ? p.data.default : undefined }) };
    }
    case 'boolean': {
      const p = BooleanProperty.safeParse(raw);
      if (!p.success) return unknown();
      return { ...common, kind: 'boolean', ...defined({ default: p.data.default }) };
    }
    case 'array': {
      const p = ArrayProperty.safeParse(raw);
      if (!p.success) return unknown();
      const items = p.data.items;
      const options = items.anyOf ? titledChoices(items.anyOf) : items.enum ? plainChoices(items.enum) : [];
      if (options.length === 0) return unknown();
      const chosen = p.data.default?.filter((v, i, all) => options.some((o) => o.value === v) && all.indexOf(v) === i);
      return { ...common, kind: 'multiselect', options, ...defined({ minItems: p.data.minItems, maxItems: p.data.maxItems, default: chosen }) };
    }
    default:
      return unknown();
  }
}

/** The object without its undefined values (the model is plain JSON, compared and sent as such). */
function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The form `requestedSchema` describes, or undefined (with why) when it is not an object schema with properties. */
export function parseRequestedSchema(raw: unknown): { form: FormModel } | { error: string } {
  const parsed = ObjectSchema.safeParse(raw);
  if (!parsed.success) return { error: `requestedSchema is not an object schema with properties: ${z.prettifyError(parsed.error)}` };
  const { title, description } = parsed.data;
  // The agent's own object, not zod's copy of it: a `__proto__` key survives only there (and is left out below).
  const properties = (raw as { properties: Record<string, unknown> }).properties;
  const required = new Set(parsed.data.required ?? []);
  // `__proto__` cannot be a key of the plain objects the answer is built in; such a property is left out.
  const names = Object.keys(properties).filter((name) => name !== '__proto__');
  const fields = names.slice(0, MAX_FIELDS).map((name) => field(name, properties[name], required.has(name)));
  return {
    form: {
      ...defined({ title, description }),
      fields,
      asksForSecret: fields.some((f) => f.secret),
      omitted: Object.keys(properties).length - fields.length,
    },
  };
}
