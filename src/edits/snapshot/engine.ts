import type { Ignore } from 'ignore';
import type { Candidates } from './candidates';
import type { ExcludeReason, FileRecord, StatKey } from './types';

/**
 * Where the file-system work of a refresh runs. Two implementations: `WorkerEngine` (synchronous fs in a
 * worker thread: no libuv round trip per call, nothing on the extension host's thread; the default) and
 * `InProcessEngine` (asynchronous fs on this thread, with bounded concurrency: the fallback when no worker starts).
 */
export interface Engine {
  readonly kind: 'worker' | 'in-process';
  walk(request: WalkRequest): Promise<WalkResult>;
  /** Reads, hashes and stores each item; `limits` decides what may be stored. */
  read(items: ReadItem[], limits: ReadLimits): Promise<ReadOutcome[]>;
  close(): void;
}

export interface WalkRequest {
  /** Report every entry (the engine's memory of the last walk does not match the caller's manifest). */
  full: boolean;
  /** Entries whose mtime is at or after this (ns since the epoch) are reported even when their stat is unchanged. */
  racyFromNs: bigint;
  /** Paths (files or folders) whose entries are reported whatever their stat. */
  dirty: string[];
}

export interface WalkResult {
  /** True: `candidates` is every entry seen, `deleted` is empty. False: only what may have changed since the last walk. */
  full: boolean;
  candidates: Candidates;
  /** Entries the last walk saw and this one did not. */
  deleted: string[];
  seen: number;
  excludedDirs: Map<string, ExcludeReason>;
  unreadableDirs: Map<string, string>;
  /** The `.gitignore` rules in force, by folder, for lookups of paths the walk did not see. */
  ignores: Map<string, Ignore>;
}

export interface ReadItem {
  abs: string;
  stat: StatKey;
  link: boolean;
}

export interface ReadLimits {
  maxFileBytes: number;
  /** Room left under `maxTotalBytes`; Infinity when everything fits whatever it holds. */
  budget: number;
  /** Hashes already counted (content that costs nothing more); only sent when `budget` is finite. */
  counted: string[];
}

export interface ReadOutcome {
  abs: string;
  record: FileRecord;
  bytesRead: number;
  /** Bytes written to the store (0 when the content was already there). */
  bytesStored: number;
}

/** Messages between `WorkerEngine` and `walkWorker`. */
export type ToWorker =
  | { id: number; type: 'walk'; request: WalkRequest }
  /** `begin`: the first batch of a refresh's reads (the budget starts from `limits` there). */
  | { id: number; type: 'read'; items: ReadItem[]; limits: ReadLimits; begin: boolean };

export type FromWorker =
  | {
      id: number;
      type: 'walked';
      full: boolean;
      packed: { paths: string; stats: BigInt64Array; links: Uint8Array };
      deleted: string[];
      seen: number;
      excludedDirs: [string, ExcludeReason][];
      unreadableDirs: [string, string][];
      gitignores: [string, string][];
      touched?: string[];
    }
  | { id: number; type: 'read'; outcomes: ReadOutcome[]; touched?: string[] }
  | { id: number; type: 'error'; message: string };

export interface WorkerInit {
  roots: string[];
  storeDir: string;
  blobsDir: string;
  excludes: string[];
  respectGitignore: boolean;
  /** Tests: every path the worker passes to the file system, returned by the next walk as `touched`. */
  trace?: boolean;
}
