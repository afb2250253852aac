import { z } from 'zod';

// zod's compiled parsers probe `navigator` (the extension host warns on every access) and `new Function`; the
// interpreted path costs ~15% of protocol throughput (npm run bench) and keeps both quiet.
z.config({ jitless: true });

/**
 * Parsing policy (DIGEST §2, §23): lenient wherever the protocol grows. Unknown keys stay on the object (`_meta`
 * included), an optional field with a bad value becomes absent instead of failing the message, unknown enum strings
 * are kept as they are, and unknown union variants become an explicit `unknown` value carrying the raw JSON.
 */

/** An optional, nullable field that becomes `undefined` when its value is invalid. */
export function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined);
}

/** An open enum: the known values for editors and types, any other string kept verbatim. */
export function openEnum<const T extends readonly string[]>(_values: T) {
  return z.string() as unknown as z.ZodType<T[number] | (string & {})>;
}

export const Meta = opt(z.record(z.string(), z.unknown()));

/** A value whose discriminator we do not know (or whose known variant was malformed), kept whole. */
export type Unknown<D extends string = 'type'> = { readonly [K in D]: 'unknown' } & {
  /** The discriminator's value as sent, when there was one. */
  readonly original?: string;
  readonly raw: unknown;
  /** Why it did not parse as a known variant, when it had a known discriminator. */
  readonly error?: string;
};

export function unknownOf<D extends string>(raw: unknown, discriminator: D, error?: string): Unknown<D> {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[discriminator] : undefined;
  return {
    [discriminator]: 'unknown',
    original: typeof value === 'string' ? value : undefined,
    raw,
    ...(error ? { error } : {}),
  } as Unknown<D>;
}

/**
 * A union keyed by `discriminator`: known variants parse with their own schema; anything else (unknown key, invalid
 * known variant, not an object) becomes `Unknown`. Never fails.
 */
export function openUnion<D extends string, V extends Record<string, z.ZodType>>(discriminator: D, variants: V) {
  type Known = z.output<V[keyof V]>;
  return z.unknown().transform((raw): Known | Unknown<D> => {
    const key = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[discriminator] : undefined;
    const schema = typeof key === 'string' && Object.hasOwn(variants, key) ? variants[key] : undefined;
    if (!schema) return unknownOf(raw, discriminator);
    const parsed = schema.safeParse(raw);
    return parsed.success ? (parsed.data as Known) : unknownOf(raw, discriminator, z.prettifyError(parsed.error));
  });
}

/** An array that keeps every item: items that fail `item` are skipped only if `item` itself cannot fail (open unions). */
export function list<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).catch([]).transform((items) => {
    const out: z.output<T>[] = [];
    for (const raw of items) {
      const parsed = item.safeParse(raw);
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  });
}
