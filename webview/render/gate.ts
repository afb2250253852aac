import type { AgentChoiceView, GateView, StartErrorAction, StartErrorView } from '../../src/shared/gateProtocol';
import { h, icon, prose, terminalText } from '../dom';
import type { Post } from './contentBlocks';
import { ElicitationCard } from './elicitation';

/**
 * What stands between the user and a conversation, above it: "Sign in to <agent>" with the agent's sign-in methods
 * as buttons, an untrusted workspace and why nothing starts, why an agent could not start (with what to do), or the
 * agents found and not found to pick from. Hidden when nothing does. Agent-supplied words (names, messages, labels,
 * stderr) are shown as text with hidden characters revealed.
 */
export class GateBanner {
  readonly element = h('section', { class: 'gate', hidden: true });

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
        this.render(`${gate.agentName} asks you`, 'comment-discussion', [this.question.element]);
      }
      this.question!.update(gate.elicitation);
      // An agent waits inside its start for this answer: the question takes the focus when the reader is in the panel.
      if (this.question!.isNew && (hadFocus || document.hasFocus())) this.question!.focusFirst();
      return;
    }
    this.question = undefined;
    switch (gate.kind) {
      case 'signIn':
        this.render(`Sign in to ${gate.agentName}`, 'account', [
          h('p', { class: 'gate-message agent-words' }, prose(gate.message)),
          h('div', { class: 'gate-actions', role: 'group', 'aria-label': 'Ways to sign in' }, ...gate.choices.map((c) => this.button(c.label, () => this.post({ type: 'signIn', choiceId: c.id }), c.description))),
          this.button('Cancel', () => this.post({ type: 'signIn', choiceId: null }), undefined, 'secondary'),
        ]);
        break;
      case 'startWaiting':
        this.render(`${gate.agentName} is not answering`, 'watch', [
          h('p', { class: 'gate-message', role: 'status' }, prose(gate.message)),
          this.button('Cancel', () => this.post({ type: 'cancelStart', id: gate.id }), `Stop waiting for ${gate.step} and stop the agent`),
        ]);
        break;
      case 'untrusted':
        this.render('This workspace is not trusted', 'shield', [
          h('p', { class: 'gate-message' }, gate.message),
          this.button('Manage Workspace Trust', () => this.post({ type: 'manageTrust' })),
        ]);
        break;
      case 'startError':
        this.render(gate.title, 'error', this.startError(gate));
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

  /**
   * Why the agent could not start: our words announced at once (role alert), the agent's own words and its last
   * stderr lines marked as coming from it, then what to do.
   */
  private startError(gate: StartErrorView): HTMLElement[] {
    const act = (action: StartErrorAction) => () => this.post({ type: 'startError', id: gate.id, action });
    const said = gate.agentMessage === undefined ? null : h('figure', { class: 'agent-said' }, h('figcaption', {}, prose(`${gate.agentName} said:`)), h('blockquote', { class: 'agent-words' }, prose(gate.agentMessage)));
    const body: HTMLElement[] = [h('div', { class: 'start-error-reason', role: 'alert' }, h('p', { class: 'gate-message' }, prose(gate.message)), said)];
    if (gate.stderr.length > 0) {
      const caption = `The last lines ${gate.agentName} wrote to stderr`;
      body.push(h('figure', { class: 'agent-said agent-stderr' }, h('figcaption', {}, prose(`${caption}:`)), h('pre', { tabindex: 0, 'aria-label': caption }, terminalText(gate.stderr.join('\n')))));
    }
    const buttons: Record<StartErrorAction, [name: string, text: string, description?: string]> = {
      signIn: [`Sign in to ${gate.agentName}`, 'Sign in', 'Start again; the agent asks how to sign in'],
      retry: ['Retry', 'Retry', 'Start again the same way'],
      showLog: ['Show Log', 'Show Log', `The output channel "Howdah: ${gate.agentName}"`],
      editSettings: ['Edit Agent Settings', 'Edit Agent Settings', 'Opens the howdah.agents setting'],
      dismiss: ['Dismiss', 'Dismiss'],
    };
    const actions = gate.actions.filter((a) => a in buttons);
    body.push(
      h(
        'div',
        { class: 'gate-actions', role: 'group', 'aria-label': 'What to do' },
        // The first is the one to press; the others are secondary.
        ...actions.map((action, i) => {
          const [name, text, description] = buttons[action];
          return this.button(name, act(action), description, i === 0 ? '' : 'secondary', text);
        }),
      ),
    );
    return body;
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
