import * as fs from 'node:fs';
import type * as vscode from 'vscode';
import type { Sandbox } from '../workspace/sandbox';
import { AgentWrites } from './agentWrites';
import type { AttachedSessions } from './attachedSessions';
import { ChangeTracker } from './changeTracker';
import { DiffViews } from './diffViews';
import type { EditsStorage } from './editsStorage';
import { newFileFormat, readDisk } from './fileAccess';
import type { PendingChanges } from './pendingChanges';
import { Proposals, type Proposal, type ProposalHooks } from './proposals';
import type { Questions } from './questions';
import { TranscriptFindings } from './transcriptFindings';
import type { TurnSnapshots } from './turnSnapshots';

export interface AgentChangesDeps {
  readonly storage: EditsStorage;
  readonly pending: PendingChanges;
  readonly questions: Questions;
  readonly snapshots: TurnSnapshots;
  readonly sessions: AttachedSessions;
  readonly log: (line: string) => void;
  readonly follow: (path: string, line?: number) => void;
}

/**
 * What the agent changes and the parts that act on it, built together because they are built on each other: the
 * proposals (writes waiting for the user) act through the tracker, the writer and the diff views, and each of those
 * is built on the proposals. This object is the proposals' hooks; none is called before a proposal exists, which is
 * after construction.
 */
export class AgentChanges implements ProposalHooks {
  readonly proposals: Proposals;
  readonly tracker: ChangeTracker;
  readonly writes: AgentWrites;
  readonly views: DiffViews;
  private readonly sandbox: () => Sandbox;

  constructor(deps: AgentChangesDeps) {
    const { storage, pending, questions, snapshots, sessions, log, follow } = deps;
    this.sandbox = () => sessions.sandbox();
    this.proposals = new Proposals(this);
    const findings = new TranscriptFindings(sessions, this.proposals);
    this.tracker = new ChangeTracker({ state: storage.state, blobs: storage.blobs, pending, persist: storage.persist, log, follow, snapshots, findings });
    this.writes = new AgentWrites(this.tracker, pending, this.proposals, questions, (p) => follow(p));
    this.views = new DiffViews(pending, this.proposals);
  }

  /** A proposal's first change to the file: its content before is the checkpoint's (not a review of its own). */
  async beforeFirstChange(p: Proposal): Promise<void> {
    const disk = await readDisk(p.path);
    await this.tracker.recordChange(p.session, p.path, 'bytes' in disk ? { bytes: disk.bytes, format: disk.format } : null, false);
  }

  create(p: Proposal, text: string): Promise<void> {
    return this.writes.apply(this.sandbox(), p.path, text, newFileFormat(p.path));
  }

  async save(document: vscode.TextDocument): Promise<void> {
    await this.sandbox().resolve(document.uri.fsPath, 'write');
    await document.save();
    this.tracker.noteOwnWrite(document.uri.fsPath, fs.readFileSync(document.uri.fsPath));
  }

  opened(p: Proposal): Promise<void> {
    return this.views.openProposal(p);
  }
}
