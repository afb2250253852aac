// unbzip2-stream ships no types: a function returning a Transform that decompresses bzip2.
declare module 'unbzip2-stream' {
  import type { Transform } from 'node:stream';
  export default function unbzip2Stream(): Transform;
}
