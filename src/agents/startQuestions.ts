import type { ElicitationParams, ElicitationResult } from '../acp/schema/clientMethods';
import type { ElicitationRecord } from '../session/elicitationRecord';
import { PendingElicitations, type ElicitationAnswer } from '../session/elicitations';
import * as l10n from '@vscode/l10n';

/** A question an agent asks while it starts, with who asks. */
export interface StartQuestion {
  readonly agentName: string;
  readonly record: ElicitationRecord;
}

/**
 * Questions agents ask in request scope (DIGEST §19: `requestId` names our `authenticate`, `session/new`, load or
 * resume), before a session exists to show them in: the panel's start area shows the oldest. Each is answered by
 * the user, withdrawn by its agent, or cancelled when its agent goes away (the request's signal).
 */
export class StartQuestions {
  private readonly pending: PendingElicitations;
  private readonly askers = new Map<number, string>();
  /** Set while `ask` runs: the sink learns who asks as the question is added. */
  private asking: string | undefined;

  constructor(changed: () => void) {
    this.pending = new PendingElicitations({
      added: (record) => {
        this.askers.set(record.key, this.asking ?? l10n.t('The agent'));
        changed();
      },
      changed: (record) => {
        if (record.status !== 'waiting') this.askers.delete(record.key);
        changed();
      },
    });
  }

  ask(params: ElicitationParams, signal: AbortSignal, agentName: string): Promise<ElicitationResult> {
    this.asking = agentName;
    try {
      return this.pending.ask(params, signal);
    } finally {
      this.asking = undefined;
    }
  }

  /** The oldest question still waiting. */
  get current(): StartQuestion | undefined {
    const record = this.pending.pending[0];
    return record && { agentName: this.askers.get(record.key) ?? l10n.t('The agent'), record };
  }

  /** Every question still waiting (for the badge). */
  get count(): number {
    return this.pending.pending.length;
  }

  /** Question `key`, while it waits. */
  find(key: number): ElicitationRecord | undefined {
    return this.pending.pending.find((r) => r.key === key);
  }

  answer(key: number, answer: ElicitationAnswer): boolean {
    return this.pending.answer(key, answer);
  }

  complete(elicitationId: string): void {
    this.pending.complete(elicitationId);
  }
}
