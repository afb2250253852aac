import * as vscode from 'vscode';
import { checkLink } from '../shared/linkSafety';

/**
 * Opens in the external browser a link an agent asked the user to open (URL-mode elicitation), once they clicked
 * Open on its card: only http and https links (a `command:` or `file:` link would act inside the editor), never
 * fetched by Howdah. Tests can record instead of opening (a browser tab, or VS Code's own confirmation, would wait
 * for a click no test gives).
 */
export class ExternalOpener {
  private recorded: string[] | undefined;

  /** Whether the link was handed to the browser (false: refused here, or the user said no to VS Code's own prompt). */
  async open(url: string): Promise<boolean> {
    if (!checkLink(url).openable) return false;
    if (this.recorded) {
      this.recorded.push(url);
      return true;
    }
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(url, true);
    } catch {
      return false;
    }
    return vscode.env.openExternal(uri);
  }

  /** From now on (until called with false), links are recorded in `opened`, not opened. */
  record(on: boolean): void {
    this.recorded = on ? [] : undefined;
  }

  get opened(): readonly string[] {
    return this.recorded ?? [];
  }
}
