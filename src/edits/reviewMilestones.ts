import * as vscode from 'vscode';

/**
 * What a person has really done with the review, for the walkthrough: an agent change was there to review, a hunk was
 * accepted or rejected (CodeLens, palette, key binding), a checkpoint was restored. Fired every time; the listener
 * keeps only the first.
 */
export type ReviewMilestone = 'changeToReview' | 'hunkDecided' | 'checkpointRestored';

export class ReviewMilestones implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ReviewMilestone>();
  readonly onDidReach = this.emitter.event;

  reach(milestone: ReviewMilestone): void {
    this.emitter.fire(milestone);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
