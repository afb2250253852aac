import type { ElicitationRecord } from '../session/elicitationRecord';
import type { ElicitationAnswer, PendingElicitations } from '../session/elicitations';
import type { StartQuestions } from './startQuestions';

/**
 * Every question agents ask the user that still waits: in each session's transcript, and in the start area. Keys are
 * unique across all of them (see PendingElicitations), so an answer from the page names exactly one.
 */
export class AgentQuestions {
  constructor(
    private readonly sessions: () => Iterable<{ readonly session: { readonly elicitations: PendingElicitations } }>,
    private readonly start: StartQuestions,
  ) {}

  /** Question `key`, while it waits. */
  find(key: number): ElicitationRecord | undefined {
    return this.holder(key)?.pending.find((r) => r.key === key) ?? this.start.find(key);
  }

  /** Answers it; false when it no longer waits (or a form's values are not valid). */
  answer(key: number, answer: ElicitationAnswer): boolean {
    const holder = this.holder(key);
    return holder ? holder.answer(key, answer) : this.start.answer(key, answer);
  }

  private holder(key: number): PendingElicitations | undefined {
    for (const { session } of this.sessions()) if (session.elicitations.has(key)) return session.elicitations;
    return undefined;
  }
}
