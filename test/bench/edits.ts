/**
 * Issue 5's benchmark, the parts that do not need VS Code: hunks for a 20,000-line file with 200 scattered changes
 * (target < 50 ms), accepting and rejecting all 200 hunks one by one (recomputing hunks after each, as the review
 * does), and the baseline bookkeeping of a turn that touches 1,000 files (hash and store, decode, choose, checkpoint,
 * count, save), with its memory. Reading a slice of an open 10 MB document needs VS Code: test/integration/files.test.ts
 * prints that figure.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chooseBaseline } from '../../src/edits/baselines';
import { BlobStore } from '../../src/edits/blobStore';
import { EditsState } from '../../src/edits/editsState';
import { acceptHunk, computeHunks, countChanges, rejectEdit, rejectHunk, splitLines } from '../../src/edits/hunks';
import { decodeText } from '../../src/workspace/textCodec';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

/** A 20,000-line source-like file and a copy with 200 scattered edits: replacements, insertions, deletions. */
function bigFile(): { base: string[]; cur: string[] } {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const base = Array.from({ length: 20_000 }, (_, i) => (i % 10 === 9 ? '}\n' : `  const value${i} = compute(${Math.floor(random() * 1e6)});\n`));
  const cur = [...base];
  for (let k = 199; k >= 0; k--) {
    const at = k * 100 + 37;
    const kind = k % 3;
    if (kind === 0) cur.splice(at, 1, `  const changed${k} = 1;\n`);
    else if (kind === 1) cur.splice(at, 0, `  // inserted ${k}\n`, `  inserted(${k});\n`);
    else cur.splice(at, 2);
  }
  return { base, cur };
}

function benchHunks(): void {
  const { base, cur } = bigFile();
  const times: number[] = [];
  let hunks = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = time(() => computeHunks(base, cur));
    times.push(t.ms);
    hunks = t.value.length;
  }
  console.log(`hunks, 20,000 lines, 200 scattered changes: ${hunks} hunks in ${median(times).toFixed(1)} ms (median of ${ROUNDS}; target < 50 ms)`);

  const accept = time(() => {
    let b = base;
    for (let h = computeHunks(b, cur); h.length > 0; h = computeHunks(b, cur)) b = acceptHunk(b, cur, h[Math.floor(h.length / 2)]);
    return b.join('') === cur.join('');
  });
  const reject = time(() => {
    let c = cur;
    for (let h = computeHunks(base, c); h.length > 0; h = computeHunks(base, c)) c = rejectHunk(base, c, h[Math.floor(h.length / 2)]);
    return c.join('') === base.join('');
  });
  // As the editor sees it: each reject is a text edit on the whole document string, then the lines are split again.
  const rejectText = time(() => {
    const baseText = base.join('');
    let text = cur.join('');
    for (;;) {
      const c = splitLines(text);
      const h = computeHunks(base, c);
      if (h.length === 0) break;
      const e = rejectEdit(base, c, h[h.length - 1]);
      text = text.slice(0, e.start) + e.text + text.slice(e.end);
    }
    return text === baseText;
  });
  console.log(`accept all 200 hunks one by one: ${accept.ms.toFixed(0)} ms (${(accept.ms / 200).toFixed(2)} ms each) — exact: ${accept.value}`);
  console.log(`reject all 200 hunks one by one: ${reject.ms.toFixed(0)} ms (${(reject.ms / 200).toFixed(2)} ms each) — exact: ${reject.value}`);
  console.log(`reject as text edits, re-split each time: ${rejectText.ms.toFixed(0)} ms (${(rejectText.ms / 200).toFixed(2)} ms each) — exact: ${rejectText.value}`);
}

async function benchTurn(files = 1000): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-bench-edits-'));
  // ~8 KB files, each with a small edit, as an agent's refactor across a code base.
  const before = Array.from({ length: files }, (_, f) => Buffer.from(Array.from({ length: 200 }, (_, i) => `export const f${f}_${i} = ${i} * ${f}; // line ${i}\n`).join('')));
  const after = before.map((b, f) => Buffer.from(b.toString().replace(`// line 100\n`, `// line 100, changed in file ${f}\n`)));
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage();

  const state = new EditsState();
  const blobs = new BlobStore(path.join(dir, 'blobs'));
  const run = time(() => {
    let added = 0;
    for (let f = 0; f < files; f++) {
      const p = `/ws/src/file${f}.ts`;
      const prev = blobs.put(before[f]);
      state.known.set(p, { ref: prev, origin: 'session' });
      const beforeText = decodeText(before[f]).text;
      const now = decodeText(after[f]);
      const choice = chooseBaseline({ session: { text: beforeText, bytes: before[f] }, current: { text: now.text, bytes: after[f] } })!;
      const ref = blobs.put(choice.content!.bytes!);
      state.recordCheckpoint('s1', 0, p, ref);
      state.reviews.set(p, { path: p, session: 's1', baseline: ref, format: now.format, source: choice.source, turn: 0, decided: false });
      state.known.set(p, { ref: blobs.put(after[f]), origin: 'session' });
      added += countChanges(computeHunks(splitLines(beforeText), splitLines(now.text))).added;
    }
    return added;
  });
  const heap1 = process.memoryUsage();
  const save = time(() => JSON.stringify(state.toJSON()));
  const flushStart = performance.now();
  await blobs.flush(state.referencedBlobs(true));
  const flushMs = performance.now() - flushStart;
  const checkpoint = time(() => state.checkpoint('s1', 0).size);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const contentMb = mb(before.reduce((n, b) => n + b.length, 0) + after.reduce((n, b) => n + b.length, 0));
  console.log(
    `turn touching ${files} files (~8 KB each): bookkeeping ${run.ms.toFixed(0)} ms (${(run.ms / files).toFixed(2)} ms/file: hash, store, decode, choose, checkpoint, count; ${run.value} lines changed)`,
  );
  console.log(
    `  memory: heap +${mb(heap1.heapUsed - heap0.heapUsed)} MB, buffers +${mb(heap1.arrayBuffers - heap0.arrayBuffers)} MB (${contentMb} MB of before+after content, stored once each)`,
  );
  console.log(`  state JSON ${(save.value.length / 1024).toFixed(0)} KB in ${save.ms.toFixed(1)} ms; ${blobs.bytesInMemory ? mb(blobs.bytesInMemory) : 0} MB of blobs written in ${flushMs.toFixed(0)} ms; checkpoint of ${checkpoint.value} files listed in ${checkpoint.ms.toFixed(2)} ms`);
  fs.rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  benchHunks();
  await benchTurn();
}

void main();
