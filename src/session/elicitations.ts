import { RpcError } from '../acp/errors';
import type { ElicitationParams, ElicitationResult } from '../acp/schema/clientMethods';
import { answeredFields, formContent, type FormInputs } from '../shared/elicitationForm';
import { parseRequestedSchema } from '../shared/elicitationSchema';
import type { ElicitationEnd, ElicitationRecord } from './elicitationRecord';

/** Where the questions show: a session's transcript, or the start area (questions asked before a session exists). */
export interface ElicitationSink {
  added(record: ElicitationRecord): void;
  /** Its status (and what was answered) changed. */
  changed(record: ElicitationRecord): void;
}

/** The user's answer; `inputs` are the form's controls as the page holds them, checked again here. */
export type ElicitationAnswer = { readonly action: 'accept'; readonly inputs?: FormInputs } | { readonly action: 'decline' } | { readonly action: 'cancel' };

interface Waiting {
  readonly record: ElicitationRecord;
  settle(result: ElicitationResult, endedBy?: ElicitationEnd): void;
}

/** Keys are unique across sessions and the start area: an answer names exactly one question. */
let nextKey = 1;

/**
 * The agent's questions that wait on the user, with their resolvers (their only owner: the protocol layer passes
 * each request's signal and keeps no state). Each is answered once: by the user, by Stop (the turn is cancelled),
 * by the agent withdrawing it (`$/cancel_request`, the request's signal), or when its session or agent goes away.
 * Pure: no I/O, no VS Code.
 */
export class PendingElicitations {
  private readonly waiting = new Map<number, Waiting>();
  /** URL elicitations by the agent's id, until `elicitation/complete` or the end: the id must be unique meanwhile. */
  private readonly links = new Map<string, ElicitationRecord>();

  constructor(private readonly sink: ElicitationSink) {}

  /** A question from the agent; resolves to the answer to send. Throws `-32602` for one Howdah cannot show. */
  ask(params: ElicitationParams, signal: AbortSignal): Promise<ElicitationResult> {
    const record = this.recordFor(params);
    if (signal.aborted) return Promise.resolve({ action: 'cancel' });
    if (record.elicitationId !== undefined) this.links.set(record.elicitationId, record);
    return new Promise<ElicitationResult>((resolve) => {
      const onAbort = () => waiting.settle({ action: 'cancel' }, 'agent');
      const waiting: Waiting = {
        record,
        settle: (result, endedBy) => {
          if (!this.waiting.delete(record.key)) return;
          signal.removeEventListener('abort', onAbort);
          record.status = result.action === 'accept' ? 'accepted' : result.action === 'decline' ? 'declined' : 'cancelled';
          if (endedBy) {
            record.endedBy = endedBy;
            this.forgetLink(record);
          } else if (result.action !== 'accept') this.forgetLink(record);
          this.sink.changed(record);
          resolve(result);
        },
      };
      this.waiting.set(record.key, waiting);
      signal.addEventListener('abort', onAbort, { once: true });
      this.sink.added(record);
    });
  }

  /**
   * The user's answer to question `key`. False when none waits under that key (answered already, or the page showed
   * an older state) or when the form's inputs are not valid (the page checks them first: only a forged message gets
   * here).
   */
  answer(key: number, answer: ElicitationAnswer): boolean {
    const waiting = this.waiting.get(key);
    if (!waiting) return false;
    const { record } = waiting;
    if (answer.action !== 'accept') {
      waiting.settle({ action: answer.action });
      return true;
    }
    if (record.mode === 'url') {
      waiting.settle({ action: 'accept' });
      return true;
    }
    const form = record.form!;
    const content = formContent(form, answer.inputs ?? {});
    if (!content) return false;
    record.answered = answeredFields(form, content);
    waiting.settle({ action: 'accept', content });
    return true;
  }

  /** `elicitation/complete`: the agent says the flow behind a link is finished. Unknown or finished ids are ignored. */
  complete(elicitationId: string): void {
    const record = this.links.get(elicitationId);
    if (!record) return;
    this.links.delete(elicitationId);
    // Still unanswered: the card closes and the request is answered as dismissed.
    this.waiting.get(record.key)?.settle({ action: 'cancel' }, 'agent');
    record.status = 'completed';
    this.sink.changed(record);
  }

  /** Every waiting question is answered `cancel`: the turn was stopped, or the session or agent is gone. */
  settleAll(endedBy: ElicitationEnd): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle({ action: 'cancel' }, endedBy);
    if (endedBy === 'closed') this.links.clear();
  }

  /** The questions that wait on the user now, oldest first. */
  get pending(): ElicitationRecord[] {
    return [...this.waiting.values()].map((w) => w.record);
  }

  /** Whether question `key` waits here. */
  has(key: number): boolean {
    return this.waiting.has(key);
  }

  private forgetLink(record: ElicitationRecord): void {
    if (record.elicitationId !== undefined && this.links.get(record.elicitationId) === record) this.links.delete(record.elicitationId);
  }

  private recordFor(params: ElicitationParams): ElicitationRecord {
    const common = { key: nextKey++, message: params.message, status: 'waiting' as const, ...(params.toolCallId ? { toolCallId: params.toolCallId } : {}) };
    if (params.mode === 'form') {
      const parsed = parseRequestedSchema(params.requestedSchema);
      if ('error' in parsed) throw RpcError.invalidParams(parsed.error);
      return { ...common, mode: 'form', form: parsed.form };
    }
    if (params.mode === 'url') {
      if (typeof params.url !== 'string' || typeof params.elicitationId !== 'string') throw RpcError.invalidParams('A URL elicitation needs url and elicitationId');
      if (this.links.has(params.elicitationId)) throw RpcError.invalidParams(`Elicitation ${params.elicitationId} is already outstanding`);
      return { ...common, mode: 'url', url: params.url, elicitationId: params.elicitationId };
    }
    throw RpcError.invalidParams(`Unsupported elicitation mode: ${params.mode}`);
  }
}
