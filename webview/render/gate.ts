import type { AgentChoiceView, GateView, StartErrorAction, StartErrorView } from '../../src/shared/gateProtocol';
import { h, icon, prose, proseString, revealed, terminalText } from '../dom';
import type { Post } from './contentBlocks';
import { ElicitationCard } from './elicitation';
import * as l10n from '@vscode/l10n';

/**
 * What stands between the user and a conversation, above it: "Sign in to <agent>" with the agent's sign-in methods
 * as buttons, an untrusted workspace and why nothing starts, why an agent could not start (with what to do), or the
 * agents found and not found to pick from. Hidden when nothing does. Agent-supplied words (names, messages, labels,
 * stderr) are shown as text with hidden characters revealed.
 */
export class GateBanner {
  readonly element = h('section', { class: 'gate', hidden: true });
  /** What the agent list is filtered by; kept across updates of the list. */
  private filter = '';

  private question: ElicitationCard | undefined;
  private questionKey = -1;

  constructor(private readonly post: Post) {}

  update(gate: GateView | null): void {
    this.element.hidden = !gate;
    // While a start error is shown, it stands where the conversation would be (the empty state's text is hidden).
    this.element.classList.toggle('start-error', gate?.kind === 'startError');
    if (!gate) {
      this.element.replaceChildren();
      this.element.removeAttribute('aria-label');
      return;
    }
    const hadFocus = this.element.contains(document.activeElement);
    if (gate.kind === 'elicitation') {
      // The same question again (the gate is re-sent on every change): the card keeps what the user typed.
      const same = this.question?.element.isConnected && this.questionKey === gate.elicitation.key;
      if (!same) {
        this.question = new ElicitationCard(this.post);
        this.questionKey = gate.elicitation.key;
        this.render(l10n.t('{0} asks you', gate.agentName), 'comment-discussion', [this.question.element]);
      }
      this.question!.update(gate.elicitation);
      // An agent waits inside its start for this answer: the question takes the focus when the reader is in the panel.
      if (this.question!.isNew && (hadFocus || document.hasFocus())) this.question!.focusFirst();
      return;
    }
    this.question = undefined;
    switch (gate.kind) {
      case 'signIn':
        this.render(l10n.t('Sign in to {0}', gate.agentName), 'account', [
          h('p', { class: 'gate-message agent-words' }, prose(gate.message)),
          h('div', { class: 'gate-actions', role: 'group', 'aria-label': l10n.t('Ways to sign in') }, ...gate.choices.map((c) => this.button(c.label, () => this.post({ type: 'signIn', choiceId: c.id }), c.description))),
          this.button(l10n.t('Cancel'), () => this.post({ type: 'signIn', choiceId: null }), undefined, 'secondary'),
        ]);
        break;
      case 'startWaiting':
        this.render(l10n.t('{0} is not answering', gate.agentName), 'watch', [
          h('p', { class: 'gate-message', role: 'status' }, prose(gate.message)),
          this.button(l10n.t('Cancel'), () => this.post({ type: 'cancelStart', id: gate.id }), l10n.t('Stop waiting for {0} and stop the agent', gate.step)),
        ]);
        break;
      case 'untrusted':
        this.render(l10n.t('This workspace is not trusted'), 'shield', [
          h('p', { class: 'gate-message' }, gate.message),
          this.button(l10n.t('Manage Workspace Trust'), () => this.post({ type: 'manageTrust' })),
        ]);
        break;
      case 'startError':
        this.render(gate.title, 'error', this.startError(gate));
        break;
      case 'chooseAgent': {
        const list = h('ul', { class: 'gate-agents' }, ...gate.agents.map((a) => this.agentItem(a)));
        const filter = h('input', { type: 'search', class: 'gate-agent-filter', placeholder: l10n.t('Filter agents'), 'aria-label': l10n.t('Filter agents'), value: this.filter });
        filter.value = this.filter;
        filter.addEventListener('input', () => {
          this.filter = filter.value;
          applyFilter(list, this.filter);
        });
        applyFilter(list, this.filter);
        this.render(l10n.t('Choose an agent'), 'hubot', [
          h('p', { class: 'gate-message' }, l10n.t('No default agent is set. Pick the agent for new sessions (it becomes the default); one that is not installed is installed into Howdah’s storage first:')),
          filter,
          list,
        ]);
        break;
      }
    }
    // A new question takes the focus only from itself (the reader may be typing elsewhere).
    if (hadFocus) this.element.querySelector<HTMLButtonElement>('button')?.focus();
  }

  private render(title: string, iconName: string, body: HTMLElement[]): void {
    this.element.setAttribute('aria-label', title);
    this.element.replaceChildren(h('h2', { class: 'gate-title' }, icon(iconName), ' ', prose(title)), ...body);
  }

  /**
   * Why the agent could not start: our words announced at once (role alert), the agent's own words and its last
   * stderr lines marked as coming from it, then what to do.
   */
  private startError(gate: StartErrorView): HTMLElement[] {
    const act = (action: StartErrorAction) => () => this.post({ type: 'startError', id: gate.id, action });
    const said = gate.agentMessage === undefined ? null : h('figure', { class: 'agent-said' }, h('figcaption', {}, prose(l10n.t('{0} said:', gate.agentName))), h('blockquote', { class: 'agent-words' }, prose(gate.agentMessage)));
    const body: HTMLElement[] = [h('div', { class: 'start-error-reason', role: 'alert' }, h('p', { class: 'gate-message' }, prose(gate.message)), said)];
    if (gate.stderr.length > 0) {
      const caption = l10n.t('The last lines {0} wrote to stderr', gate.agentName);
      body.push(h('figure', { class: 'agent-said agent-stderr' }, h('figcaption', {}, prose(`${caption}:`)), h('pre', { tabindex: 0, 'aria-label': caption }, terminalText(gate.stderr.join('\n')))));
    }
    const buttons: Record<StartErrorAction, [name: string, text: string, description?: string]> = {
      signIn: [l10n.t('Sign in to {0}', gate.agentName), l10n.t('Sign in'), l10n.t('Start again; the agent asks how to sign in')],
      retry: [l10n.t('Retry'), l10n.t('Retry'), l10n.t('Start again the same way')],
      showLog: [l10n.t('Show Log'), l10n.t('Show Log'), l10n.t('The output channel "Howdah: {0}"', gate.agentName)],
      editSettings: [l10n.t('Edit Agent Settings'), l10n.t('Edit Agent Settings'), l10n.t('Opens the howdah.agents setting')],
      dismiss: [l10n.t('Dismiss'), l10n.t('Dismiss')],
    };
    const actions = gate.actions.filter((a) => a in buttons);
    body.push(
      h(
        'div',
        { class: 'gate-actions', role: 'group', 'aria-label': l10n.t('What to do') },
        // The first is the one to press; the others are secondary.
        ...actions.map((action, i) => {
          const [name, text, description] = buttons[action];
          return this.button(name, act(action), description, i === 0 ? '' : 'secondary', text);
        }),
      ),
    );
    return body;
  }

  /**
   * One agent: its icon, name, version, licence, how it is distributed, what it is, whether it is installed; Start,
   * Install or Update, and Docs.
   */
  private agentItem(agent: AgentChoiceView): HTMLElement {
    const item = h('li', { class: `gate-agent${agent.installed ? '' : ' missing'}`, 'data-filter': [agent.name, agent.id, agent.description ?? '', agent.distribution ?? ''].join(' ').toLowerCase() });
    item.append(agentIcon(agent.icon));
    const signIn = agent.signIn === 'signed-in' ? l10n.t('signed in') : agent.signIn === 'signed-out' ? l10n.t('not signed in') : undefined;
    const meta = [agent.version, agent.license, agent.distribution, signIn].filter((x): x is string => !!x).join(' · ');
    item.append(
      h(
        'div',
        { class: 'gate-agent-text' },
        h('span', { class: 'gate-agent-name' }, prose(agent.name)),
        meta ? h('span', { class: 'gate-agent-meta' }, ' ', prose(meta)) : null,
        agent.description ? h('span', { class: 'gate-agent-description' }, prose(agent.description)) : null,
        h('span', { class: 'gate-agent-detail', title: agent.commandLine ? l10n.t('Command line: {0}', proseString(agent.commandLine)) : undefined }, prose(agent.detail)),
        agent.commandLine ? h('details', { class: 'gate-agent-command' }, h('summary', {}, l10n.t('Command line')), h('code', {}, revealed(agent.commandLine))) : null,
      ),
    );
    const actions = h('div', { class: 'gate-agent-actions' });
    if (agent.installed) actions.append(this.button(l10n.t('Start {0}', agent.name), () => this.post({ type: 'chooseAgent', agentId: agent.id }), undefined, 'small', l10n.t('Start')));
    else if (agent.canInstall) actions.append(this.button(l10n.t('Install {0}', agent.name), () => this.post({ type: 'installAgent', agentId: agent.id }), l10n.t('Downloads it into Howdah’s storage, then starts it'), 'small', l10n.t('Install')));
    if (agent.updateTo) actions.append(this.button(l10n.t('Update to {0}', agent.updateTo), () => this.post({ type: 'installAgent', agentId: agent.id }), l10n.t('Update {0}; running sessions keep their version until restarted', agent.name), 'secondary small'));
    if (agent.canSignIn && agent.signIn !== 'signed-in') actions.append(this.button(l10n.t('Sign in to {0}', agent.name), () => this.post({ type: 'signInAgent', agentId: agent.id }), l10n.t('Runs its login in a terminal; checked again when the terminal closes'), 'secondary small', l10n.t('Sign in')));
    if (agent.hasDocs) actions.append(this.button(l10n.t('{0} docs', agent.name), () => this.post({ type: 'agentDocs', agentId: agent.id }), undefined, 'secondary small', l10n.t('Docs')));
    item.append(actions);
    return item;
  }

  /** A button named `name` (its accessible name); `text` when what it shows is shorter. */
  private button(name: string, onClick: () => void, description?: string, className = '', text = name): HTMLButtonElement {
    const button = h('button', { type: 'button', class: className || undefined, title: description, 'aria-label': text === name ? undefined : name }, prose(text));
    button.addEventListener('click', onClick);
    return button;
  }
}

const INLINE_SVG = /^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/;

/**
 * An agent's icon is untrusted SVG: used only as a CSS mask (an image in a mask never runs scripts or loads anything,
 * and the CSP allows only `data:` images), painted with the theme's foreground, so `currentColor` icons follow the
 * theme. Anything but an inline SVG gets the generic icon.
 */
function agentIcon(uri: string | undefined): HTMLElement {
  if (!uri || !INLINE_SVG.test(uri)) return h('span', { class: 'gate-agent-icon generic', 'aria-hidden': 'true' }, icon('hubot'));
  const span = h('span', { class: 'gate-agent-icon', 'aria-hidden': 'true' });
  // Through the CSSOM, which the CSP allows (a style attribute would not be).
  span.style.setProperty('-webkit-mask-image', `url("${uri}")`);
  span.style.setProperty('mask-image', `url("${uri}")`);
  return span;
}

function applyFilter(list: HTMLElement, text: string): void {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of list.querySelectorAll<HTMLElement>('.gate-agent')) {
    const haystack = item.dataset.filter ?? '';
    item.hidden = !words.every((w) => haystack.includes(w));
  }
}
