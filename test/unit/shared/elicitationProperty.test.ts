import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { fieldError, formContent, formErrors, initialInputs, type FieldInput } from '../../../src/shared/elicitationForm';
import { parseRequestedSchema } from '../../../src/shared/elicitationSchema';

/** Property schemas as agents might send them: every known kind, with valid and nonsense keywords, and unknown ones. */
const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));
const choices = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 });
const property = fc.oneof(
  fc.record({ type: fc.constant('string'), title: fc.option(fc.string(), { nil: undefined }), minLength: fc.option(fc.oneof(fc.nat(5), anyValue), { nil: undefined }), maxLength: fc.option(fc.nat(8), { nil: undefined }), pattern: fc.option(fc.constantFrom('^a', '[0-9]', '((', '.*'), { nil: undefined }), format: fc.option(fc.constantFrom('email', 'uri', 'date', 'date-time', 'color'), { nil: undefined }), default: fc.option(anyValue, { nil: undefined }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('number', 'integer'), minimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), maximum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), default: fc.option(anyValue, { nil: undefined }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('boolean'), default: fc.option(anyValue, { nil: undefined }) }, { requiredKeys: ['type'] }),
  choices.chain((values) => fc.record({ type: fc.constant('string'), enum: fc.constant(values), default: fc.option(fc.oneof(fc.constantFrom(...values), fc.string()), { nil: undefined }) })),
  choices.chain((values) => fc.record({ type: fc.constant('array'), items: fc.constant({ type: 'string', enum: values }), minItems: fc.option(fc.nat(3), { nil: undefined }), maxItems: fc.option(fc.nat(3), { nil: undefined }), default: fc.option(fc.array(fc.string()), { nil: undefined }) }, { requiredKeys: ['type', 'items'] })),
  fc.record({ type: fc.string(), title: fc.option(fc.string(), { nil: undefined }) }),
  anyValue,
);
const schema = fc.record({
  properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), property, { maxKeys: 6 }),
  required: fc.option(fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }), { nil: undefined }),
});
const input: fc.Arbitrary<FieldInput> = fc.oneof(fc.string(), fc.boolean(), fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }), fc.integer().map(String));

describe('elicitation form model: properties over generated schemas and inputs', () => {
  it('any schema with properties parses into a form without throwing; every property becomes one field, in order', () => {
    fc.assert(
      fc.property(schema, (s) => {
        const parsed = parseRequestedSchema(s);
        assert.ok('form' in parsed);
        const names = Object.keys(s.properties).filter((n) => n !== '__proto__');
        assert.deepEqual(parsed.form.fields.map((f) => f.name), names);
        for (const f of parsed.form.fields) assert.equal(f.required, !!s.required?.includes(f.name));
      }),
    );
  });

  it('the defaults it fills in never break a field’s own rules beyond "required" and the limits the agent set', () => {
    fc.assert(
      fc.property(schema, (s) => {
        const parsed = parseRequestedSchema(s);
        if (!('form' in parsed)) return;
        const inputs = initialInputs(parsed.form);
        for (const field of parsed.form.fields) {
          if (field.kind === 'select' || field.kind === 'boolean' || field.kind === 'number') {
            const error = fieldError(field, inputs[field.name]);
            assert.ok(error === undefined || /Required/.test(error), `${field.kind} default: ${error}`);
          }
        }
      }),
    );
  });

  it('content exists exactly when no field has an error, holds only known fields of the right JSON types, and survives JSON', () => {
    fc.assert(
      fc.property(schema, fc.dictionary(fc.string({ maxLength: 8 }), input), (s, typed) => {
        const parsed = parseRequestedSchema(s);
        if (!('form' in parsed)) return;
        const form = parsed.form;
        const inputs = { ...initialInputs(form), ...typed };
        const content = formContent(form, inputs);
        assert.equal(content === undefined, Object.keys(formErrors(form, inputs)).length > 0);
        if (!content) return;
        assert.deepEqual(JSON.parse(JSON.stringify(content)), content);
        for (const [name, value] of Object.entries(content)) {
          const field = form.fields.find((f) => f.name === name);
          assert.ok(field && field.kind !== 'unknown', `only known fields are sent: ${name}`);
          const expected = { text: 'string', select: 'string', number: 'number', boolean: 'boolean', multiselect: 'object' }[field.kind];
          assert.equal(typeof value, expected);
          if (field.kind === 'multiselect') assert.ok((value as string[]).every((v) => field.options.some((o) => o.value === v)));
          if (field.kind === 'select') assert.ok(field.options.some((o) => o.value === value));
        }
      }),
      { numRuns: 300 },
    );
  });
});
