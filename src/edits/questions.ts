import * as vscode from 'vscode';

export interface Question {
  readonly message: string;
  readonly detail?: string;
  readonly answer: string | undefined;
}

/**
 * The modal questions the edits layer asks (a write to a sensitive file, restoring a checkpoint), in one place: each
 * one is recorded, and the integration tests can script the next answers instead of clicking a modal dialog they
 * cannot reach. Agents cannot run VS Code commands, so the script is out of their reach.
 */
export class Questions {
  private readonly log: Question[] = [];
  private readonly scripted: string[] = [];

  async ask(message: string, detail: string | undefined, ...choices: string[]): Promise<string | undefined> {
    const answer = this.scripted.length > 0 ? this.scripted.shift() : await vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices);
    const recorded = answer !== undefined && choices.includes(answer) ? answer : undefined;
    this.log.push({ message, detail, answer: recorded });
    if (this.log.length > 50) this.log.shift();
    return recorded;
  }

  /** For tests: the answers the next questions get, in order (a choice's title, or anything else for "dismissed"). */
  scriptAnswers(...answers: string[]): void {
    this.scripted.push(...answers);
  }

  asked(): readonly Question[] {
    return this.log;
  }
}
