import { decodeText, encodeText, type FileFormat } from '../workspace/textCodec';
import type { BaselineEvidence, Known } from './baselines';
import type { BlobStore } from './blobStore';
import type { ContentRef, KnownContent } from './editsState';
import { configuredEncoding, newFileFormat, readDisk } from './fileAccess';
import type { Hint, Turn } from './turn';

/** The clues for a baseline a turn has gathered for one file, and storing the chosen content. */

/** What the turn and what we knew of the file say about its content before the change. */
export async function gatherEvidence(blobs: BlobStore, path: string, turn: Turn, prev: KnownContent | undefined, current: Known, hint: Hint): Promise<BaselineEvidence> {
  const evidence: BaselineEvidence = { current, appeared: hint === 'created' && prev === undefined, diffs: turn.diffsFor(path) };
  if (prev) {
    const known = prev.ref === null ? null : await blobs.get(prev.ref);
    if (known !== undefined) {
      const content: Known = known === null ? null : { text: decodeText(known, configuredEncoding(path)).text, bytes: Buffer.from(known) };
      if (prev.origin === 'document') evidence.document = content;
      else evidence.session = content;
    }
  }
  const snapshot = turn.snapshots.get(path);
  if (snapshot) {
    const s = await snapshot;
    if (s !== undefined) evidence.snapshot = s;
  }
  return evidence;
}

/** Content → blob: bytes as they were when we have them, else the text in the file's format. */
export function storeContent(blobs: BlobStore, content: Known, currentFormat: FileFormat | undefined, path: string): { ref: ContentRef; format: FileFormat } {
  if (content === null) return { ref: null, format: currentFormat ?? newFileFormat(path) };
  if (content.bytes) return { ref: blobs.put(content.bytes), format: decodeText(content.bytes, configuredEncoding(path)).format };
  const format = currentFormat ?? newFileFormat(path);
  return { ref: blobs.put(encodeText(content.text, format)), format };
}

/** The file now, as a baseline source read when an edit is announced. */
export async function readKnown(path: string): Promise<Known | undefined> {
  const disk = await readDisk(path);
  if ('missing' in disk) return null;
  if ('unreadable' in disk) return undefined;
  return { text: disk.text, bytes: disk.bytes };
}
