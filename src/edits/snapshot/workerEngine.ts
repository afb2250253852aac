import type { Ignore } from 'ignore';
import { Worker } from 'node:worker_threads';
import { Candidates } from './candidates';
import type { Engine, FromWorker, ReadItem, ReadLimits, ReadOutcome, ToWorker, WalkRequest, WalkResult, WorkerInit } from './engine';
import { parseGitignore } from './rules';

/** Reads go to the worker in batches, two in flight, so it never waits and no message is large. */
const BATCH = 256;

/**
 * The snapshot's file-system work in a worker thread (`walkWorker.ts`, bundled as out/snapshotWalker.js). This
 * thread only sends requests and applies the answers; a walk with nothing changed answers with a few bytes. The
 * worker is unref'd while idle, so it never keeps a process alive; if it fails or exits, every pending and later
 * call rejects (`failed` says so) and the caller falls back to the in-process engine.
 */
export class WorkerEngine implements Engine {
  readonly kind = 'worker' as const;
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  /** Parsed `.gitignore` rules by folder, reused while the text is the same. */
  private readonly ignores = new Map<string, { text: string; ig: Ignore }>();
  /** Tests (`trace`): every path the worker passed to the file system in the last calls. */
  readonly touched: string[] = [];

  constructor(script: string, init: WorkerInit) {
    this.worker = new Worker(script, { workerData: init });
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if ('touched' in m && m.touched) this.touched.push(...m.touched);
      if (m.type === 'error') waiting.reject(new Error(`snapshot worker: ${m.message}`));
      else waiting.resolve(m);
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => this.fail(new Error(`the snapshot worker exited (code ${code})`)));
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  async walk(request: WalkRequest): Promise<WalkResult> {
    const m = await this.call({ id: 0, type: 'walk', request });
    if (m.type !== 'walked') throw new Error('snapshot worker: unexpected answer');
    const ignores = new Map<string, Ignore>();
    for (const [dir, text] of m.gitignores) {
      let cached = this.ignores.get(dir);
      if (cached?.text !== text) this.ignores.set(dir, (cached = { text, ig: parseGitignore(text) }));
      ignores.set(dir, cached.ig);
    }
    return {
      full: m.full,
      candidates: Candidates.unpack(m.packed),
      deleted: m.deleted,
      seen: m.seen,
      excludedDirs: new Map(m.excludedDirs),
      unreadableDirs: new Map(m.unreadableDirs),
      ignores,
    };
  }

  async read(items: ReadItem[], limits: ReadLimits): Promise<ReadOutcome[]> {
    const batches: ReadItem[][] = [];
    for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
    const answers: Promise<FromWorker>[] = [];
    const out: ReadOutcome[] = [];
    for (let b = 0; b < batches.length; b++) {
      const answer = this.call({ id: 0, type: 'read', items: batches[b], limits, begin: b === 0 });
      answer.catch(() => undefined); // awaited below, in order
      answers.push(answer);
      if (b >= 1) collect(await answers[b - 1]);
    }
    if (answers.length) collect(await answers[answers.length - 1]);
    return out;

    function collect(m: FromWorker): void {
      if (m.type !== 'read') throw new Error('snapshot worker: unexpected answer');
      for (const o of m.outcomes) out.push({ ...o, record: Object.freeze(o.record) });
    }
  }

  close(): void {
    this.fail(new Error('the snapshot worker was closed'));
    void this.worker.terminate();
  }

  private call(message: ToWorker): Promise<FromWorker> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<FromWorker>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...message, id });
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.pending.values()) reject(this.failure);
    this.pending.clear();
  }
}
