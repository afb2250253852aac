/**
 * The form an agent asks the user to fill in (`elicitation/create`, mode `form`, DIGEST §19), as plain data: what
 * each field is, what it accepts, and the answer built from what the user typed. The host parses the agent's
 * `requestedSchema` into this model (elicitationSchema.ts) and checks the answer again before sending it; the page
 * renders it and checks as the user types, with the same functions, so both sides agree on every message.
 * No DOM, no Node, no zod: the webview bundles this file.
 */
import * as l10n from '@vscode/l10n';

export interface FieldCommon {
  /** The property's name in the answer's `content`. */
  readonly name: string;
  /** The property's `title`, else its name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  /** Named or described like a password, token, key or secret. */
  readonly secret: boolean;
}

export interface ChoiceModel {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/** `email`, `uri`, `date`, `date-time`, or a format we do not check (kept, shown, not validated). */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time' | (string & {});

export type FieldModel =
  | (FieldCommon & { readonly kind: 'text'; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly format?: TextFormat; readonly default?: string })
  | (FieldCommon & { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number; readonly default?: number })
  | (FieldCommon & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldCommon & { readonly kind: 'select'; readonly options: readonly ChoiceModel[]; readonly default?: string })
  | (FieldCommon & { readonly kind: 'multiselect'; readonly options: readonly ChoiceModel[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[] })
  /** A property of a type Howdah does not know: shown read-only with its schema, never part of the answer. */
  | (FieldCommon & { readonly kind: 'unknown'; readonly type: string; readonly raw: string });

export interface FormModel {
  readonly title?: string;
  readonly description?: string;
  readonly fields: readonly FieldModel[];
  /** Some field looks like it asks for a secret: the form says agents must not ask for secrets this way. */
  readonly asksForSecret: boolean;
  /** Properties left out because the form had more than MAX_FIELDS. */
  readonly omitted: number;
}

/** What a control holds: text as typed (numbers too), a checkbox's state, the chosen options of a multi-select. */
export type FieldInput = string | boolean | string[];
export type FormInputs = Readonly<Record<string, FieldInput>>;
/** A value of the answer's `content` (DIGEST §19: string, integer, number, boolean, string[]). */
export type ContentValue = string | number | boolean | string[];

export const MAX_FIELDS = 100;

const SECRET_WORDS = new Set(['password', 'passwords', 'passphrase', 'passcode', 'passwd', 'pwd', 'pin', 'token', 'secret', 'secrets', 'key', 'apikey', 'credential', 'credentials', 'otp', 'totp']);

/**
 * Whether a property's name, title or description names a secret. Words are split at case changes and separators
 * first, so `apiKey`, `GITHUB_TOKEN` and "Your password" match and `keyboard`, `monkey` and "max tokens" do not.
 */
export function looksSecret(...texts: readonly (string | undefined)[]): boolean {
  for (const text of texts) {
    if (!text) continue;
    const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().match(/[a-z0-9]+/g) ?? [];
    if (words.some((w) => SECRET_WORDS.has(w))) return true;
    // "api key" / "api_key" as two words is caught by "key"; "apikey" as one by the set.
  }
  return false;
}

/** What each control starts with: the schema's default, else empty (a checkbox unchecked). */
export function initialInputs(model: FormModel): Record<string, FieldInput> {
  const inputs: Record<string, FieldInput> = {};
  for (const field of model.fields) {
    switch (field.kind) {
      case 'text':
        inputs[field.name] = field.default ?? '';
        break;
      case 'number':
        inputs[field.name] = field.default === undefined ? '' : String(field.default);
        break;
      case 'boolean':
        inputs[field.name] = field.default ?? false;
        break;
      case 'select':
        inputs[field.name] = field.default ?? '';
        break;
      case 'multiselect':
        inputs[field.name] = [...(field.default ?? [])];
        break;
      case 'unknown':
        break;
    }
  }
  return inputs;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** A scheme, a colon, then no spaces (RFC 3986's shape; what the agent does with it is its own check). */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 date-time, as JSON Schema's `date-time` asks: seconds and a zone are required. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function validDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  return !!m && validDate(m[1]) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 61;
}

/** JSON Schema counts characters as code points, not UTF-16 units. */
const length = (text: string) => [...text].length;

/**
 * The agent's `pattern` as a regular expression (not anchored: JSON Schema's `pattern` matches anywhere), or
 * undefined when it is not one JavaScript can compile; such a pattern is not checked.
 */
export function compilePattern(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** Why `input` is not a valid value for `field`, in words for the user; undefined when it is. */
export function fieldError(field: FieldModel, input: FieldInput | undefined): string | undefined {
  switch (field.kind) {
    case 'text': {
      const text = typeof input === 'string' ? input : '';
      if (text === '') return field.required ? l10n.t('Required.') : undefined;
      if (field.minLength !== undefined && length(text) < field.minLength) return field.minLength === 1 ? l10n.t('At least 1 character.') : l10n.t('At least {0} characters.', field.minLength);
      if (field.maxLength !== undefined && length(text) > field.maxLength) return field.maxLength === 1 ? l10n.t('At most 1 character.') : l10n.t('At most {0} characters.', field.maxLength);
      if (field.format === 'email' && !EMAIL.test(text)) return l10n.t('Not an email address (name@example.com).');
      if (field.format === 'uri' && !URI.test(text)) return l10n.t('Not a URI (such as https://example.com/path).');
      if (field.format === 'date' && !validDate(text)) return l10n.t('Not a date (YYYY-MM-DD).');
      if (field.format === 'date-time' && !validDateTime(text)) return l10n.t('Not a date and time (such as 2026-07-24T13:05:00Z).');
      const pattern = compilePattern(field.pattern);
      if (pattern && !pattern.test(text)) return l10n.t('Does not match the pattern the agent asked for: {0}', field.pattern ?? '');
      return undefined;
    }
    case 'number': {
      const text = typeof input === 'string' ? input.trim() : '';
      if (text === '') return field.required ? l10n.t('Required.') : undefined;
      if (!NUMBER.test(text) || !Number.isFinite(Number(text))) return l10n.t('Not a number.');
      const value = Number(text);
      if (field.integer && !Number.isInteger(value)) return l10n.t('Not a whole number.');
      if (field.minimum !== undefined && value < field.minimum) return l10n.t('At least {0}.', field.minimum);
      if (field.maximum !== undefined && value > field.maximum) return l10n.t('At most {0}.', field.maximum);
      return undefined;
    }
    case 'boolean':
      return undefined;
    case 'select': {
      const value = typeof input === 'string' ? input : '';
      if (value === '') return field.required ? l10n.t('Required: choose one.') : undefined;
      return field.options.some((o) => o.value === value) ? undefined : l10n.t('Choose one of the options.');
    }
    case 'multiselect': {
      const chosen = Array.isArray(input) ? input : [];
      if (chosen.some((v) => !field.options.some((o) => o.value === v))) return l10n.t('Choose among the options.');
      if (new Set(chosen).size !== chosen.length) return l10n.t('Each option once.');
      const min = field.minItems ?? (field.required ? 1 : 0);
      if (chosen.length < min) return l10n.t('Choose at least {0}.', min);
      if (field.maxItems !== undefined && chosen.length > field.maxItems) return l10n.t('Choose at most {0}.', field.maxItems);
      return undefined;
    }
    case 'unknown':
      return undefined;
  }
}

/** Every field's error, by name; empty when the form can be sent. */
export function formErrors(model: FormModel, inputs: FormInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of model.fields) {
    const error = fieldError(field, Object.hasOwn(inputs, field.name) ? inputs[field.name] : undefined);
    if (error) errors[field.name] = error;
  }
  return errors;
}

/**
 * The `content` of an `accept` answer, or undefined when some field is invalid. Empty optional fields are left out;
 * a checkbox always answers; numbers are sent as numbers; unknown fields are never sent.
 */
export function formContent(model: FormModel, inputs: FormInputs): Record<string, ContentValue> | undefined {
  if (Object.keys(formErrors(model, inputs)).length > 0) return undefined;
  const content: Record<string, ContentValue> = {};
  for (const field of model.fields) {
    const input = Object.hasOwn(inputs, field.name) ? inputs[field.name] : undefined;
    switch (field.kind) {
      case 'text':
      case 'select':
        if (typeof input === 'string' && input !== '') content[field.name] = input;
        break;
      case 'number':
        if (typeof input === 'string' && input.trim() !== '') content[field.name] = Number(input.trim());
        break;
      case 'boolean':
        content[field.name] = input === true;
        break;
      case 'multiselect':
        if (Array.isArray(input) && (input.length > 0 || field.required)) content[field.name] = [...input];
        break;
      case 'unknown':
        break;
    }
  }
  return content;
}

/** How an answered field is shown in the transcript (and saved with it): a secret-looking value never in clear. */
export interface AnsweredField {
  readonly label: string;
  readonly value: string;
}

export const HIDDEN_VALUE = l10n.t('(hidden: looks like a secret)');

export function answeredFields(model: FormModel, content: Readonly<Record<string, ContentValue>>): AnsweredField[] {
  const out: AnsweredField[] = [];
  for (const field of model.fields) {
    if (!Object.hasOwn(content, field.name)) continue;
    const value = content[field.name];
    const choice = (v: string) => (field.kind === 'select' || field.kind === 'multiselect' ? field.options.find((o) => o.value === v)?.label ?? v : v);
    const shown = field.secret ? HIDDEN_VALUE : Array.isArray(value) ? value.map(choice).join(', ') || l10n.t('(none)') : typeof value === 'boolean' ? (value ? l10n.t('yes') : l10n.t('no')) : choice(String(value));
    out.push({ label: field.label, value: shown });
  }
  return out;
}
