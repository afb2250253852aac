import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { BlobStore, writeAtomic } from './blobStore';
import { EditsState } from './editsState';
import * as l10n from '@vscode/l10n';

/** Changes come in bursts (a turn's files one after the other): one save for the burst. */
const SAVE_DELAY_MS = 500;

/**
 * The review's persisted state: `edits/state.json` and the blobs it points at, under the extension's storage for this
 * workspace, so pending changes, baselines, checkpoints and held writes survive a window reload. `persist` is what
 * every part of the layer calls after a change; the save it schedules is one for the burst.
 */
export class EditsStorage implements vscode.Disposable {
  readonly state: EditsState;
  readonly blobs: BlobStore;
  /** Where the state is saved (the tests read what a reload would find there). */
  readonly stateFile: string;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    dir: string,
    private readonly onSaveFailed: (message: string) => void,
  ) {
    this.stateFile = path.join(dir, 'state.json');
    this.state = EditsState.fromJSON(readJson(this.stateFile));
    this.blobs = new BlobStore(path.join(dir, 'blobs'));
  }

  /** Schedules a save. An arrow, as the parts built on the state take it as their callback. */
  readonly persist = (): void => {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      void this.save().catch((e: unknown) => this.onSaveFailed(l10n.t('Could not save the review state: {0}', String(e))));
    }, SAVE_DELAY_MS);
  };

  /** Saves now: the blobs first, so the state never points at one that is not on disk. */
  async save(): Promise<void> {
    await this.blobs.flush(this.state.referencedBlobs(true));
    await writeAtomic(this.stateFile, JSON.stringify(this.state.toJSON()));
  }

  /** On shutdown there is no time for promises: what is left is written synchronously. */
  dispose(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    try {
      this.blobs.flushSync(this.state.referencedBlobs(true));
      fs.mkdirSync(path.dirname(this.stateFile), { recursive: true });
      fs.writeFileSync(`${this.stateFile}.tmp`, JSON.stringify(this.state.toJSON()));
      fs.renameSync(`${this.stateFile}.tmp`, this.stateFile);
    } catch {
      // Nothing more can be done while the window closes; the last debounced save stands.
    }
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
