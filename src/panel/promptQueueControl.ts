import type * as vscode from 'vscode';
import type { QueuedMessage } from '../session/promptQueue';
import { AttachmentSchema, type Attachment } from '../shared/protocol';
import { PerSession, type PanelSession, type PanelSessions } from './panelSessions';

/** Sends one message to a session as the prompt box does (blocks built from text and attachments); resolves when its turn is over. */
export type SendMessage = (target: PanelSession, text: string, attachments: readonly Attachment[]) => Promise<void>;
/** Sends one message into the running turn, for an agent that takes messages mid-turn; false when it did not go. */
export type InterjectMessage = (target: PanelSession, text: string, attachments: readonly Attachment[]) => Promise<boolean>;

/**
 * The queue of messages sent while a turn runs (src/session/promptQueue.ts holds it, saved with the transcript): a
 * message sent during a turn is queued; when a turn ends by itself (end_turn, max_tokens, …) the first queued one
 * is sent, and so on, one turn each. A turn the user stopped, or one that failed, leaves the queue waiting — unless
 * the user chose Send now, which stops the turn and sends that message next. An agent that takes messages mid-turn
 * (Claude Code) gets a Send now message at once, into the running turn, which is not stopped.
 */
export class PromptQueueControl implements vscode.Disposable {
  private readonly drains: PerSession<QueueDrain>;

  constructor(
    private readonly sessions: PanelSessions,
    send: SendMessage,
    private readonly interject?: InterjectMessage,
  ) {
    this.drains = new PerSession(sessions, (managed) => new QueueDrain(managed, send));
  }

  /** Queues a message for `target`'s running turn; false when the queue is full. */
  enqueue(target: PanelSession, text: string, attachments: readonly Attachment[]): boolean {
    return !!target.session.state.queue.add(text, attachments);
  }

  edit(target: PanelSession, id: number, text: string): boolean {
    return text.trim() !== '' && target.session.state.queue.edit(id, text);
  }

  remove(target: PanelSession, id: number): boolean {
    return target.session.state.queue.remove(id);
  }

  /**
   * Moves the message to the front and sends it next: at once when no turn runs, into the turn when the agent takes
   * that, else after stopping the turn.
   */
  async sendNow(target: PanelSession, id: number): Promise<void> {
    const { state } = target.session;
    if (!state.queue.promote(id)) return;
    const drain = this.drains.get(target.key);
    if (!drain) return;
    if (state.turn === 'idle') {
      await drain.sendNext();
      return;
    }
    if (this.interject && target.session.takesMessagesMidTurn && state.turn === 'running') {
      const message = state.queue.shift();
      if (message && (await this.interject(target, message.text, attachmentsOf(message)))) return;
      if (message) state.queue.unshift(message);
      // The turn may have ended meanwhile: then the message simply goes.
      if (turnOf(target) === 'idle') return drain.sendNext();
    }
    drain.sendAfterStop = true;
    await this.sessions.cancel(target.key);
  }

  dispose(): void {
    this.drains.dispose();
  }
}

/** One session's queue, sent as its turns end. */
class QueueDrain implements vscode.Disposable {
  /** Send now was chosen: the turn being stopped is followed by the first queued message. */
  sendAfterStop = false;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly target: PanelSession,
    private readonly send: SendMessage,
  ) {
    this.subscription = target.session.state.onChange((change) => {
      if (change.type !== 'turn-ended') return;
      const byItself = change.stopReason !== undefined && change.stopReason !== 'cancelled';
      const go = byItself || this.sendAfterStop;
      this.sendAfterStop = false;
      // After the event: the turn that just ended is still unwinding its prompt call.
      if (go) setTimeout(() => void this.sendNext(), 0);
    });
  }

  /** Sends the first queued message; one the session could not take (its agent would not start) goes back in front. */
  async sendNext(): Promise<void> {
    const { state } = this.target.session;
    if (state.turn !== 'idle') return;
    const next = state.queue.shift();
    if (!next) return;
    const before = state.userMessageCount;
    await this.send(this.target, next.text, attachmentsOf(next));
    if (state.userMessageCount === before) state.queue.unshift(next);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Read through a call, not narrowed: it changes across the awaits above. */
function turnOf(target: PanelSession): string {
  return target.session.state.turn;
}

/** A queued message's attachments, parsed again: after a reload they come from a file. One that does not parse is left out. */
function attachmentsOf(message: QueuedMessage): Attachment[] {
  return message.attachments.flatMap((a) => {
    const parsed = AttachmentSchema.safeParse(a);
    return parsed.success ? [parsed.data] : [];
  });
}
