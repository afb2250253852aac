import type * as vscode from 'vscode';
import { Emitter, type Event } from '../base/event';
import type { GateIntent, GateView, StartErrorAction } from '../shared/gateProtocol';
import { gateView, type GateState } from './gateView';

/** Where the gate's state comes from and what its buttons do (src/agents/agentGate.ts, over the session manager). */
export interface GateSources {
  readonly onDidChange: vscode.Event<void>;
  state(): Promise<GateState>;
  chooseSignIn(choiceId: string | undefined): void;
  chooseAgent(agentId: string): Promise<void>;
  installAgent(agentId: string): Promise<void>;
  openDocs(agentId: string): Promise<void>;
  /** Runs the agent's login in a terminal, then checks its sign-in state again. */
  signInAgent(agentId: string): Promise<void>;
  manageTrust(): Promise<void>;
  /** Cancel on a start call that has not answered; `id` names the one the page showed. */
  cancelStart(id: string): void;
  /** A start error's button; `id` names the failure the page showed (ignored when it is no longer the one). */
  startErrorAction(id: string, action: StartErrorAction): Promise<void>;
}

/**
 * The panel's gate: what stands between the user and a conversation (see gateProtocol.ts), recomputed when the
 * sources change; `onDidChange` only when what is shown changes. The newest computation wins.
 */
export class PanelGate implements vscode.Disposable {
  private current: GateView | undefined;
  private generation = 0;
  private readonly changed = new Emitter<GateView | undefined>();
  /** What the gate shows changed. */
  readonly onDidChange: Event<GateView | undefined> = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly sources: GateSources) {
    this.subscription = sources.onDidChange(() => void this.refresh());
    void this.refresh();
  }

  get view(): GateView | undefined {
    return this.current;
  }

  async refresh(): Promise<GateView | undefined> {
    const generation = ++this.generation;
    const state = await this.sources.state();
    if (generation !== this.generation) return this.current;
    const next = gateView(state);
    if (JSON.stringify(next) !== JSON.stringify(this.current)) {
      this.current = next;
      this.changed.fire(next);
    }
    return next;
  }

  /** The gate's buttons; ids are checked by the sources (the page may show an older state). */
  async handle(intent: GateIntent): Promise<void> {
    switch (intent.type) {
      case 'signIn':
        return this.sources.chooseSignIn(intent.choiceId ?? undefined);
      case 'chooseAgent':
        return this.sources.chooseAgent(intent.agentId);
      case 'installAgent':
        return this.sources.installAgent(intent.agentId);
      case 'agentDocs':
        return this.sources.openDocs(intent.agentId);
      case 'signInAgent':
        return this.sources.signInAgent(intent.agentId);
      case 'manageTrust':
        return this.sources.manageTrust();
      case 'startError':
        return this.sources.startErrorAction(intent.id, intent.action);
      case 'cancelStart':
        return this.sources.cancelStart(intent.id);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
