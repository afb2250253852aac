/**
 * The strings of package.json a person reads (command titles and categories, view and container names,
 * configuration descriptions and enum descriptions, walkthrough text, welcome content, the extension's own name
 * and description), each with the key it has or gets in package.nls.json, and where its JSON string sits in the
 * text, so a tool can replace it with `%key%` without reformatting the file.
 */

export interface ManifestString {
  /** The JSON path, e.g. ["contributes", "commands", 3, "title"]. */
  readonly path: readonly (string | number)[];
  readonly value: string;
  /** The key for package.nls.json (derived from ids, not positions, so it survives reordering). */
  readonly key: string;
  /** Offsets of the JSON string token (quotes included). */
  readonly start: number;
  readonly end: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Located {
  readonly path: (string | number)[];
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** Parses JSON, recording every string value with its path and offsets (the manifest is plain JSON). */
function parseLocated(text: string): { value: Json; strings: Located[] } {
  let i = 0;
  const strings: Located[] = [];
  const ws = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: (string | number)[]): Json => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: { [key: string]: Json } = {};
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // :
        out[key] = value([...path, key]);
        ws();
        if (text[i++] === '}') return out;
      }
    }
    if (c === '[') {
      i++;
      const out: Json[] = [];
      ws();
      if (text[i] === ']') return i++, out;
      for (;;) {
        out.push(value([...path, out.length]));
        ws();
        if (text[i++] === ']') return out;
      }
    }
    if (c === '"') {
      const start = i;
      const s = str();
      strings.push({ path, value: s, start, end: i });
      return s;
    }
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i))!;
    i += m[0].length;
    return JSON.parse(m[0]) as Json;
  };
  return { value: value([]), strings };
}

const at = (root: Json, path: readonly (string | number)[]): Json | undefined =>
  path.reduce<Json | undefined>((node, k) => (node && typeof node === 'object' ? (node as Record<string, Json>)[k as string] : undefined), root);

const idOf = (root: Json, path: readonly (string | number)[], field: string): string => String((at(root, path) as Record<string, Json> | undefined)?.[field] ?? path[path.length - 1]);

/** The package.nls.json key of a user-facing string at `path`, or undefined when the string is not user-facing. */
function keyOf(root: Json, path: readonly (string | number)[]): string | undefined {
  const [top, area, ...rest] = path;
  const last = path[path.length - 1];
  if (path.length === 1 && (top === 'displayName' || top === 'description')) return String(top);
  if (top === 'capabilities' && last === 'description') return path.join('.');
  if (top !== 'contributes') return undefined;
  switch (area) {
    case 'commands':
      if (rest.length === 2 && (last === 'title' || last === 'shortTitle')) return `${idOf(root, path.slice(0, 3), 'command')}.${last}`;
      if (rest.length === 2 && last === 'category') return `category.${String(at(root, path)).toLowerCase().replace(/\W+/g, '-')}`;
      return undefined;
    case 'viewsContainers':
      return path.length === 5 && last === 'title' ? `viewsContainer.${idOf(root, path.slice(0, 4), 'id')}.title` : undefined;
    case 'views':
      return path.length === 5 && (last === 'name' || last === 'contextualTitle') ? `view.${idOf(root, path.slice(0, 4), 'id')}.${last}` : undefined;
    case 'viewsWelcome':
      return path.length === 4 && last === 'contents' ? `viewsWelcome.${idOf(root, path.slice(0, 3), 'view')}.${rest[0]}` : undefined;
    case 'submenus':
      return path.length === 4 && last === 'label' ? `submenu.${idOf(root, path.slice(0, 3), 'id')}.label` : undefined;
    case 'configuration': {
      const props = rest.indexOf('properties');
      if (props < 0) return last === 'title' ? 'configuration.title' : undefined;
      const setting = String(rest[props + 1]);
      const tail = rest.slice(props + 2);
      const field = tail.find((k) => typeof k === 'string' && /^(markdown)?(description|enumDescriptions|deprecationMessage|markdownDeprecationMessage)$/i.test(k));
      if (!field) return undefined;
      const fieldAt = tail.indexOf(field);
      // Within enumDescriptions: keyed by the enum value it describes.
      if (/enumDescriptions$/i.test(String(field))) {
        const index = tail[fieldAt + 1];
        if (typeof index !== 'number') return undefined;
        const enumValues = at(root, [...path.slice(0, path.length - tail.length + fieldAt), 'enum']);
        const value = Array.isArray(enumValues) ? enumValues[index] : index;
        return [setting, ...tail.slice(0, fieldAt), field, String(value)].join('.');
      }
      return fieldAt === tail.length - 1 ? [setting, ...tail].join('.') : undefined;
    }
    case 'walkthroughs': {
      const id = idOf(root, path.slice(0, 3), 'id');
      if (path.length === 4 && (last === 'title' || last === 'description')) return `walkthrough.${id}.${last}`;
      if (path[3] === 'steps' && typeof path[4] === 'number') {
        const step = idOf(root, path.slice(0, 5), 'id');
        if (path.length === 6 && (last === 'title' || last === 'description')) return `walkthrough.${id}.${step}.${last}`;
        if (path.length === 7 && path[5] === 'media' && last === 'altText') return `walkthrough.${id}.${step}.altText`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

export function manifestStrings(text: string): ManifestString[] {
  const { value: root, strings } = parseLocated(text);
  return strings.flatMap((s) => {
    const key = keyOf(root, s.path);
    return key ? [{ ...s, key }] : [];
  });
}

const PLACEHOLDER = /^%([^%]+)%$/;

/** The manifest with every literal user-facing string replaced by `%key%`, and the entries to add to package.nls.json. */
export function externalize(text: string, nls: Readonly<Record<string, string>>): { text: string; added: Record<string, string>; conflicts: string[] } {
  const added: Record<string, string> = {};
  const conflicts: string[] = [];
  let out = text;
  for (const s of [...manifestStrings(text)].reverse()) {
    if (PLACEHOLDER.test(s.value)) continue;
    const existing = nls[s.key] ?? added[s.key];
    if (existing !== undefined && existing !== s.value) {
      conflicts.push(`${s.key}: "${existing}" vs "${s.value}"`);
      continue;
    }
    added[s.key] = s.value;
    out = out.slice(0, s.start) + JSON.stringify(`%${s.key}%`) + out.slice(s.end);
  }
  return { text: out, added, conflicts };
}

/** Every `%key%` the manifest uses (any string, user-facing or not). */
export function manifestPlaceholders(text: string): string[] {
  return parseLocated(text).strings.flatMap((s) => {
    const m = PLACEHOLDER.exec(s.value);
    return m ? [m[1]] : [];
  });
}
