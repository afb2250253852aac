import type { ConfigOptionView, HeaderView, PickerView, SelectChoiceView } from '../../src/shared/protocol';
import { h, icon, prose, proseString } from '../dom';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';


/**
 * Agent, session and its settings: name and version, title, session picker, New session, the mode / config option /
 * model pickers and the context meter. Controls are updated in place (never rebuilt while unchanged), so a usage
 * update during a turn does not close an open picker or move the focus.
 */
export class Header {
  readonly element: HTMLElement;
  private readonly identity = h('div', { class: 'identity' });
  private readonly sessionPicker = h('select', { class: 'session-picker', 'aria-label': l10n.t('Session') });
  private readonly controls = h('div', { class: 'controls' });
  private readonly meter = h('div', { class: 'context-meter', role: 'meter', 'aria-label': l10n.t('Context used'), 'aria-valuemin': 0 });
  private readonly meterBar = h('div', { class: 'context-meter-bar' });
  private readonly meterText = h('span', { class: 'context-meter-text' });
  private readonly pickers = new Map<string, { element: HTMLElement; key: string }>();
  private sessionsKey = '';

  constructor(private readonly post: Post) {
    const newSession = h('button', { type: 'button', class: 'icon-button', 'aria-label': l10n.t('New session'), title: l10n.t('New session') }, icon('add'));
    newSession.addEventListener('click', () => post({ type: 'newSession' }));
    this.sessionPicker.addEventListener('change', () => post({ type: 'selectSession', key: this.sessionPicker.value }));
    this.meter.append(h('div', { class: 'context-meter-track' }, this.meterBar), this.meterText);
    this.element = h(
      'header',
      { class: 'chat-header' },
      h('div', { class: 'header-row' }, this.identity, this.sessionPicker, newSession),
      h('div', { class: 'header-row' }, this.controls, this.meter),
    );
  }

  /** A button of the page's own (help) at the end of the first row, after New session. */
  addAction(button: HTMLButtonElement): void {
    this.element.querySelector('.header-row')?.append(button);
  }

  update(header: HeaderView): void {
    this.identity.replaceChildren(
      ...[
      icon('hubot'),
      ' ',
      h('span', { class: 'agent-name' }, prose(header.agentName ?? l10n.t('No session'))),
      header.agentVersion ? h('span', { class: 'agent-version' }, ` ${header.agentVersion}`) : null,
      header.status === 'starting' ? h('span', { class: 'status-tag' }, (' ' + l10n.t('starting…'))) : null,
      header.status === 'restarting' ? h('span', { class: 'status-tag' }, (' ' + l10n.t('restarting…'))) : null,
      header.status === 'exited' ? h('span', { class: 'status-tag failed', title: l10n.t('The agent is not running; the next message starts it again') }, (' ' + l10n.t('exited'))) : null,
      header.title ? h('span', { class: 'session-title', title: proseString(header.title) }, ' · ', prose(header.title)) : null,
      ].filter((n): n is HTMLElement | string => n !== null),
    );
    this.updateSessions(header);
    this.updatePickers(header);
    this.updateMeter(header.usage);
  }

  private updateSessions(header: HeaderView): void {
    const key = JSON.stringify(header.sessions);
    if (key !== this.sessionsKey) {
      this.sessionsKey = key;
      this.sessionPicker.replaceChildren(...header.sessions.map((s) => h('option', { value: s.key }, proseString(s.label))));
    }
    this.sessionPicker.hidden = header.sessions.length < 2;
    if (header.sessionKey) this.sessionPicker.value = header.sessionKey;
  }

  private updatePickers(header: HeaderView): void {
    const post = this.post;
    const wanted: [string, () => HTMLElement, unknown][] = [];
    if (header.modes) {
      const modes = header.modes;
      wanted.push(['legacy:mode', () => this.select(l10n.t('Mode'), '', [{ options: modes.options }], (value) => post({ type: 'setMode', modeId: value })), pickerData(modes)]);
    }
    // In the agent's order: ACP has agents list config options by priority, and clients keep that order.
    for (const option of header.configOptions) wanted.push([`config:${option.id}`, () => this.configControl(option), optionShape(option)]);
    if (header.models) {
      const models = header.models;
      wanted.push(['legacy:model', () => this.select(l10n.t('Model'), '', [{ options: models.options }], (value) => post({ type: 'setModel', modelId: value })), pickerData(models)]);
    }
    const seen = new Set<string>();
    let previous: HTMLElement | undefined;
    for (const [id, build, shape] of wanted) {
      seen.add(id);
      const key = JSON.stringify(shape);
      let picker = this.pickers.get(id);
      if (!picker || picker.key !== key) {
        const element = build();
        if (picker) picker.element.replaceWith(element);
        picker = { element, key };
        this.pickers.set(id, picker);
      }
      // Keep the order of `wanted`.
      if (previous) previous.after(picker.element);
      else if (this.controls.firstChild !== picker.element) this.controls.prepend(picker.element);
      previous = picker.element;
      this.setCurrent(id, header, picker.element);
    }
    for (const [id, picker] of this.pickers) {
      if (!seen.has(id)) {
        picker.element.remove();
        this.pickers.delete(id);
      }
    }
  }

  /** The current value, set without rebuilding the control. */
  private setCurrent(id: string, header: HeaderView, element: HTMLElement): void {
    const control = element.querySelector('select, input');
    let value: string | boolean | undefined;
    if (id === 'legacy:mode') value = header.modes?.current;
    else if (id === 'legacy:model') value = header.models?.current;
    else value = header.configOptions.find((o) => `config:${o.id}` === id)?.current;
    if (control instanceof HTMLSelectElement && typeof value === 'string') control.value = value;
    if (control instanceof HTMLInputElement && typeof value === 'boolean') control.checked = value;
  }

  private configControl(option: ConfigOptionView): HTMLElement {
    if (option.type === 'boolean') {
      const input = h('input', { type: 'checkbox' });
      input.addEventListener('change', () => this.post({ type: 'setConfigOption', configId: option.id, value: input.checked }));
      return h('label', { class: 'picker checkbox', title: option.description && proseString(option.description) }, input, ' ', prose(option.name));
    }
    return this.select(option.name, option.description ?? '', option.groups, (value) => this.post({ type: 'setConfigOption', configId: option.id, value }));
  }

  private select(label: string, description: string, groups: readonly { name?: string; options: readonly SelectChoiceView[] }[], onChange: (value: string) => void): HTMLElement {
    const select = h('select', { 'aria-label': proseString(label), title: proseString(description ? `${label}: ${description}` : label) });
    for (const group of groups) {
      const parent = group.name ? h('optgroup', { label: proseString(group.name) }) : select;
      for (const choice of group.options) parent.append(h('option', { value: choice.value, title: choice.description && proseString(choice.description) }, proseString(choice.name)));
      if (parent !== select) select.append(parent);
    }
    select.addEventListener('change', () => onChange(select.value));
    return h('span', { class: 'picker' }, select);
  }

  private updateMeter(usage: HeaderView['usage']): void {
    this.meter.hidden = !usage;
    if (!usage) return;
    const ratio = usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
    const percent = Math.round(ratio * 100);
    const cost = usage.cost ? ` · ${formatCost(usage.cost.amount, usage.cost.currency)}` : '';
    // CSSOM, not a style attribute: the CSP forbids inline styles.
    this.meterBar.style.width = `${percent}%`;
    this.meter.classList.toggle('high', ratio >= 0.8);
    this.meter.setAttribute('aria-valuemax', String(usage.size));
    this.meter.setAttribute('aria-valuenow', String(usage.used));
    this.meter.setAttribute('aria-valuetext', l10n.t('{0}% of the context used ({1} of {2} tokens){3}', percent, compact(usage.used), compact(usage.size), cost));
    this.meter.title = l10n.t('{0} of {1} tokens{2}', usage.used.toLocaleString(), usage.size.toLocaleString(), cost);
    this.meterText.textContent = proseString(`${percent}%${cost}`);
  }
}

/** What a control is built from (the current value is set separately). */
function optionShape(option: ConfigOptionView): unknown {
  return option.type === 'select' ? [option.type, option.name, option.description, option.groups] : [option.type, option.name, option.description];
}

function pickerData(picker: PickerView): unknown {
  return picker.options;
}

function compact(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1_000 ? `${Math.round(n / 1_000)}k` : String(n);
}

function formatCost(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
