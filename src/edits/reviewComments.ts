import * as vscode from 'vscode';
import { z } from 'zod';
import type { PromptBlock } from '../acp/schema/agentMethods';
import { reviewPromptBlocks, type ReviewComment } from '../session/reviewPrompt';
import type { PendingChanges } from './pendingChanges';
import type { ReviewRounds } from './reviewRounds';

export const REVIEW_CONTROLLER_ID = 'howdah.review';
const SAVED_KEY = 'howdah.reviewComments';

/** Sends a review round as one prompt; the agent's name when it went, undefined (the user told why) when not. */
export type ReviewSender = (blocks: PromptBlock[]) => Promise<string | undefined>;

/** A comment the user wrote; `sentTo` once it went to an agent. */
class Note implements vscode.Comment {
  readonly mode = vscode.CommentMode.Preview;
  readonly author = { name: vscode.l10n.t('You') };
  body: vscode.MarkdownString;
  contextValue: 'unsent' | 'sent';
  label: string | undefined;

  constructor(
    readonly text: string,
    readonly timestamp = new Date(),
    public sentTo?: string,
  ) {
    // The user's own words, shown as Markdown but never trusted (no command links, no HTML).
    this.body = new vscode.MarkdownString(text);
    this.contextValue = sentTo ? 'sent' : 'unsent';
    this.label = sentTo ? vscode.l10n.t('sent to {0}', sentTo) : vscode.l10n.t('not sent yet');
  }

  markSent(agent: string): void {
    this.sentTo = agent;
    this.contextValue = 'sent';
    this.label = vscode.l10n.t('sent to {0}', agent);
  }
}

const SavedThread = z.object({
  uri: z.string(),
  range: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
  notes: z.array(z.object({ text: z.string(), at: z.number(), sentTo: z.string().optional() })).min(1),
});
type SavedThread = z.output<typeof SavedThread>;

/**
 * Review comments on the agent's changes, with VS Code's Comments API: any line of a file under review (in its diff
 * editor, or the file itself) takes a comment, like a pull-request review. "Send Review Comments to Agent" sends every
 * unsent one as one prompt (src/session/reviewPrompt.ts) and starts a review round for their files. Threads are kept
 * in workspace state, so a reload loses none of what the user wrote.
 */
export class ReviewComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, vscode.l10n.t('Howdah review'));
  private readonly threads = new Set<vscode.CommentThread>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly pending: PendingChanges,
    private readonly rounds: ReviewRounds,
    private readonly memento: vscode.Memento,
    private readonly sender: ReviewSender,
  ) {
    this.controller.options = { prompt: vscode.l10n.t('Comment for the agent'), placeHolder: vscode.l10n.t('What should the agent change here? (sent with Send Review Comments to Agent)') };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) =>
        document.uri.scheme === 'file' && pending.has(document.uri.fsPath) ? [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)] : [],
    };
    this.disposables.push(
      this.controller,
      vscode.commands.registerCommand('howdah.review.addComment', (reply: vscode.CommentReply) => this.add(reply)),
      vscode.commands.registerCommand('howdah.review.addAndSend', async (reply: vscode.CommentReply) => {
        this.add(reply);
        await this.send();
      }),
      vscode.commands.registerCommand('howdah.review.deleteThread', (thread: vscode.CommentThread) => this.deleteThread(thread)),
      vscode.commands.registerCommand('howdah.sendReviewComments', () => this.send()),
    );
    this.restore();
  }

  /** Comments not sent yet. */
  get unsentCount(): number {
    return [...this.threads].reduce((n, t) => n + t.comments.filter((c) => (c as Note).contextValue === 'unsent').length, 0);
  }

  /** A comment on lines `range` of `uri` (what the comment box's Add Comment does). */
  addComment(uri: vscode.Uri, range: vscode.Range, text: string): vscode.CommentThread {
    const thread = this.controller.createCommentThread(uri, range, []);
    this.add({ thread, text });
    return thread;
  }

  /** Sends every unsent comment as one prompt. False when there was nothing to send or it did not go. */
  async send(): Promise<boolean> {
    const waiting = [...this.threads].filter((t) => t.comments.some((c) => (c as Note).contextValue === 'unsent'));
    if (waiting.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: there are no review comments to send. Add one on a line of an agent change (the + in the diff editor’s gutter).'));
      return false;
    }
    const comments: ReviewComment[] = [];
    const texts = new Map<string, string>();
    for (const thread of waiting) {
      const document = await vscode.workspace.openTextDocument(thread.uri).then(undefined, () => undefined);
      const range = thread.range ?? new vscode.Range(0, 0, 0, 0);
      const lines = document ? document.getText(new vscode.Range(range.start.line, 0, range.end.line, Number.MAX_SAFE_INTEGER)) : '';
      if (document) texts.set(thread.uri.fsPath, document.getText());
      const unsent = thread.comments.filter((c) => (c as Note).contextValue === 'unsent') as Note[];
      comments.push({
        uri: thread.uri.toString(),
        path: vscode.workspace.asRelativePath(thread.uri, false),
        startLine: range.start.line,
        endLine: range.end.line,
        quoted: lines,
        text: unsent.map((n) => n.text).join('\n\n'),
      });
    }
    const agent = await this.sender(reviewPromptBlocks(comments));
    if (!agent) return false;
    for (const thread of waiting) {
      for (const note of thread.comments as Note[]) if (note.contextValue === 'unsent') note.markSent(agent);
      thread.comments = [...thread.comments];
      thread.label = vscode.l10n.t('Sent to {0}', agent);
      thread.contextValue = 'howdah.sent';
    }
    this.rounds.start(texts);
    this.save();
    return true;
  }

  /** Every thread as saved, for tests and for the closing note's numbers. */
  saved(): SavedThread[] {
    return [...this.threads].map((t) => ({
      uri: t.uri.toString(),
      ...(t.range ? { range: [t.range.start.line, t.range.end.line] as [number, number] } : {}),
      notes: (t.comments as Note[]).map((n) => ({ text: n.text, at: n.timestamp.getTime(), ...(n.sentTo ? { sentTo: n.sentTo } : {}) })),
    }));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.threads.clear();
  }

  private add(reply: { thread: vscode.CommentThread; text: string }): void {
    if (reply.text.trim() === '') return;
    const { thread } = reply;
    this.threads.add(thread);
    thread.comments = [...thread.comments, new Note(reply.text)];
    thread.label = vscode.l10n.t('Not sent to the agent yet');
    thread.contextValue = 'howdah.unsent';
    thread.canReply = true;
    this.save();
  }

  private deleteThread(thread: vscode.CommentThread): void {
    this.threads.delete(thread);
    thread.dispose();
    this.save();
  }

  private save(): void {
    void this.memento.update(SAVED_KEY, this.saved());
  }

  /** Threads from before a reload; a file no longer under review keeps its unsent comments (the user's words). */
  private restore(): void {
    const saved = z.array(z.unknown()).catch([]).parse(this.memento.get<unknown>(SAVED_KEY));
    for (const raw of saved) {
      const parsed = SavedThread.safeParse(raw);
      if (!parsed.success) continue;
      const notes = parsed.data.notes.map((n) => new Note(n.text, new Date(n.at), n.sentTo));
      const uri = vscode.Uri.parse(parsed.data.uri);
      const sentOnly = notes.every((n) => n.sentTo);
      // Comments already sent on a file the review is done with are history: not brought back.
      if (sentOnly && !this.pending.has(uri.fsPath)) continue;
      const [start, end] = parsed.data.range ?? [0, 0];
      const thread = this.controller.createCommentThread(uri, new vscode.Range(start, 0, end, 0), notes);
      thread.label = sentOnly ? vscode.l10n.t('Sent to {0}', notes.at(-1)!.sentTo ?? '') : vscode.l10n.t('Not sent to the agent yet');
      thread.contextValue = sentOnly ? 'howdah.sent' : 'howdah.unsent';
      thread.collapsibleState = sentOnly ? vscode.CommentThreadCollapsibleState.Collapsed : vscode.CommentThreadCollapsibleState.Expanded;
      this.threads.add(thread);
    }
  }
}
