/**
 * The snapshot's worker thread (bundled on its own as out/snapshotWalker.js): walks and reads with synchronous fs,
 * which blocks only this thread. Answers `walk` and `read` messages from `WorkerEngine`, one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerInit } from './engine';
import { ExclusionRules } from './rules';
import { SyncReader } from './syncRead';
import { realSyncFs, SyncWalker, type SyncFs } from './syncWalk';

const init = workerData as WorkerInit;
let touched: string[] = [];
const touch = init.trace ? (p: string) => void touched.push(p) : () => undefined;
const io: SyncFs = init.trace
  ? {
      readdirSync: (p) => (touch(p), realSyncFs.readdirSync(p)),
      lstatSync: (p) => (touch(p), realSyncFs.lstatSync(p)),
      readFileSync: (p) => (touch(p), realSyncFs.readFileSync(p)),
    }
  : realSyncFs;
const walker = new SyncWalker(init.roots, new ExclusionRules(init.excludes, init.respectGitignore, init.storeDir), io);
const reader = new SyncReader(init.blobsDir, touch);

function answer(message: ToWorker): FromWorker {
  if (message.type === 'walk') {
    const { full, candidates, deleted, seen, excludedDirs, unreadableDirs, gitignores } = walker.walk(message.request);
    const packed = candidates.pack();
    return { id: message.id, type: 'walked', full, packed, deleted, seen, excludedDirs, unreadableDirs, gitignores, touched: flushTouched() };
  }
  if (message.begin) reader.begin(message.limits);
  const outcomes = message.items.map((item) => reader.read(item, message.limits.maxFileBytes));
  return { id: message.id, type: 'read', outcomes, touched: flushTouched() };
}

function flushTouched(): string[] | undefined {
  if (!init.trace) return undefined;
  const out = touched;
  touched = [];
  return out;
}

parentPort!.on('message', (message: ToWorker) => {
  let reply: FromWorker;
  try {
    reply = answer(message);
  } catch (error) {
    if (message.type === 'walk') walker.reset();
    reply = { id: message.id, type: 'error', message: (error as Error)?.stack ?? String(error) };
  }
  const transfer = reply.type === 'walked' ? [reply.packed.stats.buffer, reply.packed.links.buffer] : [];
  parentPort!.postMessage(reply, transfer as ArrayBuffer[]);
});
