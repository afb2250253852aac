/** The turn snapshot: what the session's roots held before a prompt, byte for byte. Plain Node, no `vscode`. */
export { TreeSnapshot } from './treeSnapshot';
export { Manifest } from './manifest';
export { DEFAULT_SNAPSHOT_EXCLUDES, PROMPT_WAIT_MS } from './types';
export type { Change, ExcludeReason, FileRecord, Lookup, SkipReason, SnapshotOptions, SnapshotStats, StatKey } from './types';
