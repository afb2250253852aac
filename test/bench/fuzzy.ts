// `@` file completion over a large workspace: how long one query takes over 50,000 paths (the panel answers each
// keystroke with it), median and p99 of 50 queries, next to a plain substring scan of the same list as the floor.
import { candidate, search } from '../../src/panel/fuzzyMatch';

const files = Array.from({ length: 50_000 }, (_, i) => candidate(`packages/pkg${i % 200}/src/module${i}/file${i}.${i % 3 ? 'ts' : 'md'}`));
files.push(candidate('packages/special/src/needle.ts'));
const queries = ['needle', 'pkg1', 'src/mod', 'file4999', 'pk/s/m', 'zzz'];

function measure(run: (q: string) => unknown): { median: number; p99: number } {
  run('warmup');
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const query = queries[i % queries.length];
    const start = performance.now();
    run(query);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] };
}

const fuzzy = measure((q) => search(q, files));
const floor = measure((q) => files.filter((f) => f.label.includes(q)).slice(0, 50));
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`fuzzy @ search, 50,001 paths: median ${ms(fuzzy.median)}, p99 ${ms(fuzzy.p99)}`);
console.log(`substring scan (floor):       median ${ms(floor.median)}, p99 ${ms(floor.p99)}`);
console.log(`ratio (median): ${(fuzzy.median / Math.max(floor.median, 0.001)).toFixed(1)}×`);
