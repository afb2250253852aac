import type { Attachment } from '../shared/protocol';

/** What the agent in front takes besides text (its `promptCapabilities`). */
export interface MediaAccepted {
  readonly image: boolean;
  readonly audio: boolean;
}

/** Above this a sound or picture file is linked, not sent inline: base64 in a JSON line grows it by a third. */
export const MEDIA_LIMIT = 10 * 1024 * 1024;

const AUDIO: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  weba: 'audio/webm',
};
const IMAGE: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The media type of a sound or picture file by its name, and which capability sending it needs. */
export function mediaTypeOf(path: string): { kind: 'audio' | 'image'; mimeType: string } | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (!ext) return undefined;
  if (AUDIO[ext]) return { kind: 'audio', mimeType: AUDIO[ext] };
  if (IMAGE[ext]) return { kind: 'image', mimeType: IMAGE[ext] };
  return undefined;
}

/**
 * A file as an attachment: a sound or picture the agent accepts goes inline (an ACP `audio` / `image` block), within
 * `MEDIA_LIMIT`; anything else, or a file too big, is a file mention (a link the agent reads itself).
 */
export async function fileAttachment(file: { uri: string; label: string; size?: number }, accepted: MediaAccepted, read: () => Promise<Uint8Array>): Promise<Attachment> {
  const media = mediaTypeOf(file.label);
  const link: Attachment = { kind: 'file', uri: file.uri, label: file.label };
  if (!media || !accepted[media.kind] || (file.size !== undefined && file.size > MEDIA_LIMIT)) return link;
  const bytes = await read();
  if (bytes.byteLength > MEDIA_LIMIT) return link;
  return { kind: media.kind, mimeType: media.mimeType, data: Buffer.from(bytes).toString('base64'), label: file.label };
}
