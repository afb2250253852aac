import { strict as assert } from 'node:assert';
import { answeredFields, fieldError, formContent, formErrors, HIDDEN_VALUE, initialInputs, looksSecret, type FieldModel, type FormModel } from '../../../src/shared/elicitationForm';
import { parseRequestedSchema } from '../../../src/shared/elicitationSchema';

const form = (properties: Record<string, unknown>, required: string[] = []): FormModel => {
  const parsed = parseRequestedSchema({ type: 'object', properties, required });
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.form;
};
const only = (property: unknown, required = false): FieldModel => form({ p: property }, required ? ['p'] : []).fields[0];

describe('elicitation form model: the requestedSchema as fields', () => {
  it('a string becomes a text field labelled by its title (else its name), with description, limits, pattern and format', () => {
    const f = form({ name: { type: 'string', title: 'Your name', description: 'As on the badge', minLength: 2, maxLength: 20, pattern: '^[A-Z]', default: 'Ada' }, mail: { type: 'string', format: 'email' } }, ['name']);
    assert.deepEqual(f.fields[0], { name: 'name', label: 'Your name', description: 'As on the badge', required: true, secret: false, kind: 'text', minLength: 2, maxLength: 20, pattern: '^[A-Z]', default: 'Ada' });
    assert.deepEqual(f.fields[1], { name: 'mail', label: 'mail', required: false, secret: false, kind: 'text', format: 'email' });
    assert.deepEqual(initialInputs(f), { name: 'Ada', mail: '' });
  });

  it('number and integer keep minimum, maximum and a default that fits (a default outside the range is dropped)', () => {
    assert.deepEqual(only({ type: 'integer', minimum: 1, maximum: 9, default: 3 }), { name: 'p', label: 'p', required: false, secret: false, kind: 'number', integer: true, minimum: 1, maximum: 9, default: 3 });
    assert.equal((only({ type: 'integer', minimum: 1, maximum: 9, default: 12 }) as { default?: number }).default, undefined);
    assert.equal((only({ type: 'integer', default: 1.5 }) as { default?: number }).default, undefined);
    assert.deepEqual(only({ type: 'number', maximum: 'ten' }), { name: 'p', label: 'p', required: false, secret: false, kind: 'number', integer: false }, 'a bad keyword is dropped, the field stays');
  });

  it('boolean is a checkbox, unchecked unless its default says otherwise', () => {
    const f = form({ a: { type: 'boolean' }, b: { type: 'boolean', default: true } });
    assert.deepEqual(initialInputs(f), { a: false, b: true });
  });

  it('enum and titled oneOf are single selects; a default not among the options is dropped', () => {
    const plain = only({ type: 'string', enum: ['red', 'green'], default: 'green' });
    assert.deepEqual(plain.kind === 'select' && plain.options, [{ value: 'red', label: 'red' }, { value: 'green', label: 'green' }]);
    assert.equal(plain.kind === 'select' && plain.default, 'green');
    const titled = only({ type: 'string', oneOf: [{ const: 'r', title: 'Red', description: 'warm' }, { const: 'g', title: 'Green' }, { title: 'no const' }], default: 'x' });
    assert.deepEqual(titled.kind === 'select' && titled.options, [{ value: 'r', label: 'Red', description: 'warm' }, { value: 'g', label: 'Green' }]);
    assert.equal(titled.kind === 'select' && titled.default, undefined);
    const named = only({ type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] });
    assert.deepEqual(named.kind === 'select' && named.options.map((o) => o.label), ['Alpha', 'Beta'], 'legacy enumNames label the options');
  });

  it('arrays of enums and titled anyOf are multi-selects with minItems, maxItems and the default filtered to the options', () => {
    const plain = only({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['b', 'z', 'b'] });
    assert.equal(plain.kind, 'multiselect');
    assert.deepEqual(plain.kind === 'multiselect' && [plain.minItems, plain.maxItems, plain.default], [1, 2, ['b']]);
    const titled = only({ type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } });
    assert.deepEqual(titled.kind === 'multiselect' && titled.options, [{ value: 'x', label: 'Ex' }]);
  });

  it('an unknown type, or a known one too broken to show, is an unknown field carrying its raw schema', () => {
    const f = form({ when: { type: 'time-range', title: 'When' }, list: { type: 'array', items: { type: 'number' } }, none: { type: 'string', enum: [] }, bare: 42 });
    assert.deepEqual(f.fields.map((x) => [x.kind, x.kind === 'unknown' ? x.type : '']), [['unknown', 'time-range'], ['unknown', 'array'], ['unknown', 'string'], ['unknown', 'number']]);
    assert.match(f.fields[0].kind === 'unknown' ? f.fields[0].raw : '', /"time-range"/);
    assert.equal(f.fields[0].label, 'When');
  });

  it('refuses a schema that is not an object with properties, and leaves out a __proto__ property', () => {
    assert.ok('error' in parseRequestedSchema(undefined));
    assert.ok('error' in parseRequestedSchema({ type: 'object' }));
    assert.ok('error' in parseRequestedSchema({ type: 'object', properties: [] }));
    const parsed = parseRequestedSchema(JSON.parse('{"properties": {"__proto__": {"type": "string"}, "ok": {"type": "string"}}}'));
    assert.ok('form' in parsed);
    assert.deepEqual(parsed.form.fields.map((f) => f.name), ['ok']);
    assert.equal(parsed.form.omitted, 1);
  });

  it('marks secret-looking fields by name, title or description, and the form as asking for one', () => {
    assert.ok(looksSecret('apiKey') && looksSecret('GITHUB_TOKEN') && looksSecret('x', 'Your password') && looksSecret('x', undefined, 'the secret to use'));
    assert.ok(!looksSecret('keyboard') && !looksSecret('monkey') && !looksSecret('x', 'Max tokens') && !looksSecret('name'));
    const f = form({ user: { type: 'string' }, pass: { type: 'string', title: 'Password' } });
    assert.deepEqual(f.fields.map((x) => x.secret), [false, true]);
    assert.equal(f.asksForSecret, true);
    assert.equal(form({ user: { type: 'string' } }).asksForSecret, false);
  });
});

describe('elicitation form model: validation messages', () => {
  it('text: required, lengths in code points, pattern (not anchored), email, uri, date, date-time', () => {
    const text = only({ type: 'string', minLength: 2, maxLength: 3 }, true);
    assert.equal(fieldError(text, ''), 'Required.');
    assert.equal(fieldError(text, 'a'), 'At least 2 characters.');
    assert.equal(fieldError(text, 'abcd'), 'At most 3 characters.');
    assert.equal(fieldError(text, '😀😀'), undefined, 'two code points, four UTF-16 units');
    assert.equal(fieldError(only({ type: 'string' }), ''), undefined, 'optional and empty is fine');
    assert.match(fieldError(only({ type: 'string', pattern: '\\d{3}' }), 'ab') ?? '', /pattern/);
    assert.equal(fieldError(only({ type: 'string', pattern: '\\d{3}' }), 'ab123'), undefined, 'pattern matches anywhere');
    assert.equal(fieldError(only({ type: 'string', pattern: '([' }), 'anything'), undefined, 'a pattern JavaScript cannot compile is not checked');
    const email = only({ type: 'string', format: 'email' });
    assert.equal(fieldError(email, 'ada@example.com'), undefined);
    assert.match(fieldError(email, 'ada@') ?? '', /email/);
    const uri = only({ type: 'string', format: 'uri' });
    assert.equal(fieldError(uri, 'https://example.com/x'), undefined);
    assert.match(fieldError(uri, 'example dot com') ?? '', /URI/);
    const date = only({ type: 'string', format: 'date' });
    assert.equal(fieldError(date, '2026-02-28'), undefined);
    assert.match(fieldError(date, '2026-02-30') ?? '', /date/, 'not a calendar day');
    const dt = only({ type: 'string', format: 'date-time' });
    assert.equal(fieldError(dt, '2026-07-24T13:05:00Z'), undefined);
    assert.equal(fieldError(dt, '2026-07-24T13:05:00.5+02:00'), undefined);
    assert.match(fieldError(dt, '2026-07-24T13:05') ?? '', /date and time/, 'seconds and zone are required');
  });

  it('numbers: not a number, not whole, below the minimum, above the maximum', () => {
    const n = only({ type: 'integer', minimum: 1, maximum: 10 }, true);
    assert.equal(fieldError(n, ''), 'Required.');
    assert.equal(fieldError(n, 'abc'), 'Not a number.');
    assert.equal(fieldError(n, '2.5'), 'Not a whole number.');
    assert.equal(fieldError(n, '0'), 'At least 1.');
    assert.equal(fieldError(n, '11'), 'At most 10.');
    assert.equal(fieldError(n, ' 7 '), undefined);
    assert.equal(fieldError(only({ type: 'number' }), '1e400'), 'Not a number.', 'infinite');
  });

  it('selects and multi-selects: only offered values, required means one, minItems and maxItems', () => {
    const s = only({ type: 'string', enum: ['a', 'b'] }, true);
    assert.equal(fieldError(s, ''), 'Required: choose one.');
    assert.equal(fieldError(s, 'z'), 'Choose one of the options.');
    const m = only({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 }, true);
    assert.equal(fieldError(m, []), 'Choose at least 1.');
    assert.equal(fieldError(m, ['a', 'b', 'c']), 'Choose at most 2.');
    assert.equal(fieldError(m, ['a', 'z']), 'Choose among the options.');
    assert.equal(fieldError(m, ['a', 'a']), 'Each option once.');
    assert.equal(fieldError(only({ type: 'array', items: { enum: ['a'] } }), []), undefined);
  });
});

describe('elicitation form model: the accept content', () => {
  const f = form(
    {
      name: { type: 'string' },
      note: { type: 'string' },
      age: { type: 'integer' },
      ratio: { type: 'number' },
      ok: { type: 'boolean' },
      color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
      tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
      when: { type: 'mystery' },
      token: { type: 'string' },
    },
    ['name', 'when'],
  );

  it('sends typed values: numbers as numbers, a checkbox always, empty optional fields and unknown fields left out', () => {
    const content = formContent(f, { name: 'Ada', note: '', age: '42', ratio: '0.5', ok: false, color: 'r', tags: [], token: 'hunter2' });
    assert.deepEqual(content, { name: 'Ada', age: 42, ratio: 0.5, ok: false, color: 'r', token: 'hunter2' });
  });

  it('is undefined while a field is invalid, and formErrors says which', () => {
    assert.equal(formContent(f, { name: '', age: 'x' }), undefined);
    assert.deepEqual(formErrors(f, { name: '', age: 'x' }), { name: 'Required.', age: 'Not a number.' });
  });

  it('what the transcript keeps: labels, shown values, option titles, a secret-looking value hidden', () => {
    const content = formContent(f, { name: 'Ada', age: '42', ok: true, color: 'r', tags: ['y'], token: 'hunter2' })!;
    assert.deepEqual(answeredFields(f, content), [
      { label: 'name', value: 'Ada' },
      { label: 'age', value: '42' },
      { label: 'ok', value: 'yes' },
      { label: 'color', value: 'Red' },
      { label: 'tags', value: 'y' },
      { label: 'token', value: HIDDEN_VALUE },
    ]);
    assert.ok(!JSON.stringify(answeredFields(f, content)).includes('hunter2'));
  });
});
