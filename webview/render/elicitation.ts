import type { ElicitationView } from '../../src/shared/elicitationProtocol';
import { fieldError, formErrors, initialInputs, type FieldInput, type FieldModel, type FormModel } from '../../src/shared/elicitationForm';
import { append, h, icon, prose, proseString, revealed } from '../dom';
import type { Post } from './contentBlocks';
import { linkCard } from './elicitationLink';
import * as l10n from '@vscode/l10n';

/**
 * An agent's question (elicitation/create) as a card: in the transcript like a permission prompt, or in the start
 * area. A form is a real form: one labelled control per property, help and errors bound to it, required fields
 * marked; Submit checks every field first (the host checks again), Decline and Cancel answer at once, Escape is
 * Cancel. The agent's words (message, titles, descriptions, option labels) are text with hidden characters shown.
 * Rebuilt only when its state changes, never while the user types.
 */
export class ElicitationCard {
  readonly element = h('section', { class: 'elicitation' });
  private shown = '';
  /** Set when this update showed a new waiting question: the caller may move the focus into it. */
  isNew = false;

  constructor(private readonly post: Post) {}

  update(view: ElicitationView): void {
    const key = JSON.stringify([view.key, view.status, view.answered, view.endedBy, view.toolTitle]);
    this.isNew = false;
    if (key === this.shown) return;
    this.shown = key;
    this.isNew = view.status === 'waiting';
    const headingId = `elicitation-${view.key}`;
    this.element.className = `elicitation status-${view.status.replace(/[^a-z]/g, '')}`;
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-labelledby', headingId);
    const waiting = view.status === 'waiting';
    this.element.replaceChildren();
    append(this.element, [
      h('div', { class: 'elicitation-heading', id: headingId }, icon(view.mode === 'url' ? 'link-external' : 'comment-discussion'), waiting ? (' ' + l10n.t('The agent asks you')) : (' ' + l10n.t('The agent asked you'))),
      h('blockquote', { class: 'agent-words elicitation-message' }, prose(view.message)),
      view.toolTitle !== undefined ? h('div', { class: 'elicitation-tool' }, (l10n.t('For the tool call') + ' '), h('q', { class: 'agent-words' }, revealed(view.toolTitle))) : null,
      waiting ? this.question(view) : outcome(view),
    ]);
  }

  /** The first control of a waiting question. */
  focusFirst(): void {
    this.element.querySelector<HTMLElement>('input:not([disabled]), select, button')?.focus({ preventScroll: false });
  }

  private question(view: ElicitationView): HTMLElement {
    const answer = (action: 'decline' | 'cancel' | 'accept', inputs?: Record<string, FieldInput>) => {
      this.element.querySelectorAll('button').forEach((b) => (b.disabled = true));
      this.post({ type: 'elicitation', key: view.key, action, ...(inputs ? { inputs } : {}) });
    };
    if (view.mode === 'url') return linkCard(view.url ?? '', answer);
    return view.form ? formCard(view.key, view.form, answer) : h('div');
  }
}

type Answer = (action: 'decline' | 'cancel' | 'accept', inputs?: Record<string, FieldInput>) => void;

interface Control {
  readonly field: FieldModel;
  read(): FieldInput | undefined;
  /** The element that takes the focus when the field is invalid. */
  readonly focusable: HTMLElement;
  readonly error: HTMLElement;
  /** The elements whose aria-invalid follows the error. */
  readonly invalidates: readonly HTMLElement[];
  touched: boolean;
}

function formCard(key: number, model: FormModel, answer: Answer): HTMLElement {
  const form = h('form', { class: 'elicitation-form', novalidate: true, 'aria-label': model.title ? proseString(model.title) : l10n.t('The agent’s form') });
  if (model.asksForSecret) {
    form.append(
      h(
        'div',
        { class: 'elicitation-warning', role: 'note' },
        icon('warning'),
        ' ',
        l10n.t('This form seems to ask for a secret (a password, token or key). Agents must not ask for secrets in a form: what you type goes to the agent as plain text, into its context. Prefer Decline, and give secrets only where the tool itself asks for them.'),
      ),
    );
  }
  if (model.title) form.append(h('div', { class: 'elicitation-title agent-words' }, prose(model.title)));
  if (model.description) form.append(h('p', { class: 'elicitation-description agent-words' }, prose(model.description)));
  const inputs = initialInputs(model);
  const controls = model.fields.map((field, i) => control(`el-${key}-${i}`, field, inputs[field.name]));
  for (const c of controls) form.append(c.focusable.closest('.field') ?? c.focusable);
  if (model.omitted > 0) form.append(h('p', { class: 'elicitation-note' }, model.omitted === 1 ? l10n.t('1 more field not shown (the form is too long); it is left out of the answer.') : l10n.t('{0} more fields not shown (the form is too long); they are left out of the answer.', model.omitted)));
  const required = model.fields.some((f) => f.required && f.kind !== 'unknown');
  if (required) form.append(h('p', { class: 'elicitation-note' }, h('span', { class: 'required-mark', 'aria-hidden': 'true' }, '*'), (' ' + l10n.t('Required'))));

  const show = (c: Control) => {
    const error = fieldError(c.field, c.read());
    c.error.hidden = !error;
    // A message may quote the agent's pattern: hidden characters shown, like everything else it wrote.
    c.error.replaceChildren(error ? prose(error) : '');
    for (const el of c.invalidates) {
      if (error) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
  };
  for (const c of controls) {
    const root = c.focusable.closest('.field') ?? c.focusable;
    root.addEventListener('input', () => c.touched && show(c));
    root.addEventListener('change', () => {
      c.touched = true;
      show(c);
    });
    root.addEventListener('focusout', (event) => {
      // Leaving the field (not moving between its own checkboxes) is when its error first shows.
      if (root.contains((event as FocusEvent).relatedTarget as Node | null)) return;
      c.touched = true;
      show(c);
    });
  }
  const values = () => {
    const out: Record<string, FieldInput> = {};
    for (const c of controls) {
      const value = c.read();
      if (value !== undefined) out[c.field.name] = value;
    }
    return out;
  };

  const submit = h('button', { type: 'submit', class: 'elicitation-submit' }, icon('check'), (' ' + l10n.t('Submit')));
  const decline = h('button', { type: 'button', class: 'secondary elicitation-decline' }, icon('circle-slash'), (' ' + l10n.t('Decline')));
  const cancel = h('button', { type: 'button', class: 'secondary elicitation-cancel', title: l10n.t('Dismiss without answering (Escape)') }, icon('close'), (' ' + l10n.t('Cancel')));
  decline.addEventListener('click', () => answer('decline'));
  cancel.addEventListener('click', () => answer('cancel'));
  form.append(h('div', { class: 'elicitation-actions' }, submit, decline, cancel));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const inputs = values();
    const errors = formErrors(model, inputs);
    if (Object.keys(errors).length > 0) {
      for (const c of controls) {
        c.touched = true;
        show(c);
      }
      controls.find((c) => errors[c.field.name])?.focusable.focus();
      return;
    }
    answer('accept', inputs);
  });
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || submit.disabled) return;
    event.preventDefault();
    event.stopPropagation();
    answer('cancel');
  });
  return form;
}

/** One field: its label (the title, else the name), the control, its help and its error, bound together. */
function control(id: string, field: FieldModel, initial: FieldInput | undefined): Control {
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const error = h('div', { class: 'field-error', id: errorId, hidden: true });
  const hint = fieldHint(field);
  const help = field.description || hint ? h('div', { class: 'field-help', id: helpId }, field.description ? h('span', { class: 'agent-words' }, prose(field.description)) : null, hint ? h('span', { class: 'field-hint' }, prose(field.description ? ` (${hint})` : hint)) : null) : null;
  const describedBy = [help ? helpId : '', errorId].filter(Boolean).join(' ');
  const mark = field.required && field.kind !== 'unknown' ? h('span', { class: 'required-mark', 'aria-hidden': 'true' }, ' *') : null;
  const label = () => h('label', { for: id, class: 'field-label' }, h('span', { class: 'agent-words' }, prose(field.label)), mark);
  const common = { id, 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined, 'data-field': field.name };
  const wrap = (...children: (HTMLElement | null)[]) => h('div', { class: `field field-${field.kind}` }, ...children);

  switch (field.kind) {
    case 'text': {
      const type = field.secret ? 'password' : field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text';
      const input = h('input', { ...common, type, autocomplete: 'off', spellcheck: 'false', maxlength: undefined });
      input.value = typeof initial === 'string' ? initial : '';
      wrap(label(), input, help, error);
      return { field, read: () => input.value, focusable: input, error, invalidates: [input], touched: false };
    }
    case 'number': {
      const input = h('input', { ...common, type: 'number', step: field.integer ? '1' : 'any', min: field.minimum, max: field.maximum });
      input.value = typeof initial === 'string' ? initial : '';
      wrap(label(), input, help, error);
      // Text a number input cannot hold reads as empty; say it is not a number rather than "required".
      return { field, read: () => (input.validity.badInput ? l10n.t('not a number') : input.value), focusable: input, error, invalidates: [input], touched: false };
    }
    case 'boolean': {
      const input = h('input', { ...common, type: 'checkbox' });
      input.checked = initial === true;
      wrap(input, label(), help, error);
      return { field, read: () => input.checked, focusable: input, error, invalidates: [input], touched: false };
    }
    case 'select': {
      const select = h('select', common);
      if (!field.required || field.default === undefined) select.append(h('option', { value: '' }, field.required ? l10n.t('— Choose —') : l10n.t('— None —')));
      for (const option of field.options) select.append(h('option', { value: option.value, title: option.description ? proseString(option.description) : undefined }, proseString(option.label)));
      select.value = typeof initial === 'string' ? initial : '';
      wrap(label(), select, help, error);
      return { field, read: () => select.value, focusable: select, error, invalidates: [select], touched: false };
    }
    case 'multiselect': {
      const boxes = field.options.map((option, i) => {
        const box = h('input', { type: 'checkbox', id: `${id}-${i}`, value: option.value, 'aria-describedby': option.description ? `${id}-${i}-help` : undefined });
        box.checked = Array.isArray(initial) && initial.includes(option.value);
        return { box, option, i };
      });
      const group = h(
        'fieldset',
        { class: 'field-options', id, 'aria-describedby': describedBy, 'data-field': field.name },
        h('legend', { class: 'field-label' }, h('span', { class: 'agent-words' }, prose(field.label)), mark),
        ...boxes.map(({ box, option, i }) =>
          h(
            'div',
            { class: 'field-option' },
            box,
            h('label', { for: `${id}-${i}` }, h('span', { class: 'agent-words' }, prose(option.label))),
            option.description ? h('span', { class: 'field-help', id: `${id}-${i}-help` }, ' ', prose(option.description)) : null,
          ),
        ),
      );
      wrap(group, help, error);
      return {
        field,
        read: () => boxes.filter((b) => b.box.checked).map((b) => b.option.value),
        focusable: boxes[0]?.box ?? group,
        error,
        invalidates: [group],
        touched: false,
      };
    }
    case 'unknown': {
      const raw = h('pre', { class: 'raw-json', tabindex: 0, 'aria-label': l10n.t('Schema of {0}', proseString(field.label)) }, revealed(field.raw));
      const box = h('div', { class: 'field-unknown-body', id, tabindex: -1 }, prose(l10n.t('Howdah cannot show a field of type “{0}”: it is left out of the answer. Its schema, as the agent sent it:', field.type)), raw);
      wrap(h('div', { class: 'field-label' }, h('span', { class: 'agent-words' }, prose(field.label))), box, help, error);
      return { field, read: () => undefined, focusable: box, error, invalidates: [], touched: false };
    }
  }
}

/** What the field accepts, in words, when its control does not say so by itself. */
function fieldHint(field: FieldModel): string | undefined {
  const parts: string[] = [];
  if (field.kind === 'text') {
    if (field.format === 'date-time') parts.push(l10n.t('date and time, such as 2026-07-24T13:05:00Z'));
    else if (field.format === 'date') parts.push(l10n.t('a date'));
    else if (field.format === 'email') parts.push(l10n.t('an email address'));
    else if (field.format === 'uri') parts.push(l10n.t('a URI'));
    if (field.minLength !== undefined && field.maxLength !== undefined) parts.push(l10n.t('{0}–{1} characters', field.minLength, field.maxLength));
    else if (field.minLength !== undefined) parts.push(l10n.t('at least {0} characters', field.minLength));
    else if (field.maxLength !== undefined) parts.push(l10n.t('at most {0} characters', field.maxLength));
    if (field.pattern !== undefined) parts.push(l10n.t('matching {0}', field.pattern));
  } else if (field.kind === 'number') {
    if (field.integer) parts.push(l10n.t('a whole number'));
    if (field.minimum !== undefined && field.maximum !== undefined) parts.push(l10n.t('from {0} to {1}', field.minimum, field.maximum));
    else if (field.minimum !== undefined) parts.push(l10n.t('at least {0}', field.minimum));
    else if (field.maximum !== undefined) parts.push(l10n.t('at most {0}', field.maximum));
  } else if (field.kind === 'multiselect') {
    if (field.minItems !== undefined) parts.push(l10n.t('choose at least {0}', field.minItems));
    if (field.maxItems !== undefined) parts.push(l10n.t('choose at most {0}', field.maxItems));
  }
  return parts.length ? parts.join(', ') : undefined;
}

/** How a question ended, and what was answered (secret-looking values were hidden by the host). */
function outcome(view: ElicitationView): HTMLElement {
  const line = (iconName: string, text: string) => h('div', { class: 'elicitation-outcome' }, icon(iconName), ' ', text);
  if (view.endedBy === 'turn') return line('debug-stop', l10n.t('Cancelled: the turn was stopped.'));
  if (view.endedBy === 'agent') return line('debug-stop', view.status === 'completed' ? l10n.t('Closed: the agent says it is done.') : l10n.t('Withdrawn: the agent cancelled its request, or stopped.'));
  if (view.endedBy === 'closed') return line('debug-stop', l10n.t('Cancelled: the agent or the session went away.'));
  switch (view.status) {
    case 'accepted':
      if (view.mode === 'url') return line('link-external', l10n.t('You opened the link; waiting for the agent to finish.'));
      return h(
        'div',
        { class: 'elicitation-outcome' },
        icon('check'),
        view.answered?.length ? (' ' + l10n.t('You submitted:')) : (' ' + l10n.t('You submitted the form (no values).')),
        view.answered?.length ? h('dl', { class: 'elicitation-answers' }, ...view.answered.flatMap((a) => [h('dt', { class: 'agent-words' }, prose(a.label)), h('dd', {}, prose(a.value))])) : null,
      );
    case 'declined':
      return line('circle-slash', l10n.t('You declined.'));
    case 'cancelled':
      return line('close', l10n.t('You dismissed it.'));
    case 'completed':
      return line('check', l10n.t('Done: the agent says the flow is finished.'));
    default:
      return line('question', l10n.t('Ended ({0}).', view.status));
  }
}
