import type { AgentChoiceView, GateView } from '../../src/panel/gateProtocol';
import { h, icon, prose } from '../dom';
import type { Post } from './contentBlocks';

/**
 * What stands between the user and a conversation, above it: "Sign in to <agent>" with the agent's sign-in methods
 * as buttons, an untrusted workspace and why nothing starts, or the agents found and not found to pick from. Hidden
 * when nothing does. Agent-supplied words (names, messages, labels) are shown as text with hidden characters revealed.
 */
export class GateBanner {
  readonly element = h('section', { class: 'gate', hidden: true });

  constructor(private readonly post: Post) {}

  update(gate: GateView | null): void {
    this.element.hidden = !gate;
    if (!gate) {
      this.element.replaceChildren();
      this.element.removeAttribute('aria-label');
      return;
    }
    const hadFocus = this.element.contains(document.activeElement);
    switch (gate.kind) {
      case 'signIn':
        this.render(`Sign in to ${gate.agentName}`, 'account', [
          h('p', { class: 'gate-message agent-words' }, prose(gate.message)),
          h('div', { class: 'gate-actions', role: 'group', 'aria-label': 'Ways to sign in' }, ...gate.choices.map((c) => this.button(c.label, () => this.post({ type: 'signIn', choiceId: c.id }), c.description))),
          this.button('Cancel', () => this.post({ type: 'signIn', choiceId: null }), undefined, 'secondary'),
        ]);
        break;
      case 'untrusted':
        this.render('This workspace is not trusted', 'shield', [
          h('p', { class: 'gate-message' }, gate.message),
          this.button('Manage Workspace Trust', () => this.post({ type: 'manageTrust' })),
        ]);
        break;
      case 'chooseAgent':
        this.render('Choose an agent', 'hubot', [
          h('p', { class: 'gate-message' }, 'No default agent is set. Pick the agent for new sessions (it becomes the default):'),
          h('ul', { class: 'gate-agents' }, ...gate.agents.map((a) => this.agentItem(a))),
        ]);
        break;
    }
    // A new question takes the focus only from itself (the reader may be typing elsewhere).
    if (hadFocus) this.element.querySelector<HTMLButtonElement>('button')?.focus();
  }

  private render(title: string, iconName: string, body: HTMLElement[]): void {
    this.element.setAttribute('aria-label', title);
    this.element.replaceChildren(h('h2', { class: 'gate-title' }, icon(iconName), ' ', prose(title)), ...body);
  }

  private agentItem(agent: AgentChoiceView): HTMLElement {
    const item = h('li', { class: `gate-agent${agent.installed ? '' : ' missing'}` });
    if (agent.installed) item.append(this.button(agent.name, () => this.post({ type: 'chooseAgent', agentId: agent.id })));
    else item.append(h('span', { class: 'gate-agent-name' }, prose(agent.name)));
    item.append(h('span', { class: 'gate-agent-detail' }, prose(agent.detail)));
    if (agent.canInstall) item.append(this.button(`Install ${agent.name}`, () => this.post({ type: 'installAgent', agentId: agent.id }), undefined, 'secondary small', 'Install'));
    if (agent.hasDocs) item.append(this.button(`${agent.name} documentation`, () => this.post({ type: 'agentDocs', agentId: agent.id }), undefined, 'secondary small', 'Docs'));
    return item;
  }

  /** A button named `name` (its accessible name); `text` when what it shows is shorter. */
  private button(name: string, onClick: () => void, description?: string, className = '', text = name): HTMLButtonElement {
    const button = h('button', { type: 'button', class: className || undefined, title: description, 'aria-label': text === name ? undefined : name }, prose(text));
    button.addEventListener('click', onClick);
    return button;
  }
}
