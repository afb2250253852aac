/**
 * Paths as the panel shows them: relative to the workspace folder that holds them (the full path stays in the
 * tooltip, and in full on permission prompts). Pure: used by the webview, unit-tested in Node.
 */

/** A workspace folder: its name and absolute file-system path. */
export interface WorkspaceFolderView {
  readonly name: string;
  readonly path: string;
}

const WINDOWS_RE = /^(?:[a-z]:[\\/]|\\\\)/i;

/**
 * `path` relative to the innermost workspace folder that contains it, with that folder's name first when there are
 * several (as VS Code names files in a multi-root workspace). Undefined when the path is not absolute, not inside a
 * folder, is a folder itself, or has `.`, `..` or empty segments: then only the full path says where it is.
 */
export function workspaceRelative(path: string, folders: readonly WorkspaceFolderView[]): string | undefined {
  const windows = WINDOWS_RE.test(path);
  if (!windows && !path.startsWith('/')) return undefined;
  const comparable = (p: string) => (windows ? p.replace(/\\/g, '/').toLowerCase() : p);
  const target = comparable(path);
  let best: { folder: WorkspaceFolderView; length: number } | undefined;
  for (const folder of folders) {
    if (WINDOWS_RE.test(folder.path) !== windows) continue;
    const root = comparable(folder.path).replace(/\/+$/, '');
    if (target.length > root.length + 1 && target.startsWith(`${root}/`) && (!best || root.length > best.length)) best = { folder, length: root.length };
  }
  if (!best) return undefined;
  const rest = path.slice(best.length + 1);
  if (rest.split(/[\\/]/).some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return folders.length > 1 ? `${best.folder.name}/${rest}` : rest;
}
