import { revealInvisible } from '../src/shared/textSafety';
import { workspaceRelative, type WorkspaceFolderView } from '../src/shared/workspacePaths';

/**
 * The page's knowledge of the workspace folders (from the header), for showing paths relative to them. One page,
 * one set of folders: the app sets them when the header changes and renders the transcript again if they did.
 */
let folders: readonly WorkspaceFolderView[] = [];
let foldersKey = '[]';

/** Returns true when the folders changed (paths already on screen are then out of date). */
export function setWorkspaceFolders(next: readonly WorkspaceFolderView[] = []): boolean {
  const key = JSON.stringify(next);
  if (key === foldersKey) return false;
  foldersKey = key;
  folders = next;
  return true;
}

export interface ShownPath {
  /** Relative to its workspace folder when inside one, else the full path. */
  readonly text: string;
  readonly full: string;
  readonly relative: boolean;
}

/** How to show `path` (with `:line` when given). Hidden characters are left in: the caller reveals them. */
export function shownPath(path: string, line?: number): ShownPath {
  const suffix = line !== undefined ? `:${line}` : '';
  const relative = workspaceRelative(path, folders);
  return { text: (relative ?? path) + suffix, full: path + suffix, relative: relative !== undefined };
}

/** The full path for a tooltip, with its hidden characters as ⟨U+…⟩ labels. */
export function pathTitle(path: string): string {
  return revealInvisible(path);
}
