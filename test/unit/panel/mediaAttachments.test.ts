import { strict as assert } from 'node:assert';
import { fileAttachment, MEDIA_LIMIT, mediaTypeOf } from '../../../src/panel/mediaAttachments';
import { parseWebviewMessage } from '../../../src/shared/protocol';

const bytes = new Uint8Array([82, 73, 70, 70]);
const all = { image: true, audio: true };

describe('media attachments: sound and picture files sent inline to agents that take them', () => {
  it('knows sound and picture files by their extension, in any case', () => {
    assert.deepEqual(mediaTypeOf('a/memo.WAV'), { kind: 'audio', mimeType: 'audio/wav' });
    assert.deepEqual(mediaTypeOf('song.mp3'), { kind: 'audio', mimeType: 'audio/mpeg' });
    assert.deepEqual(mediaTypeOf('shot.jpeg'), { kind: 'image', mimeType: 'image/jpeg' });
    assert.equal(mediaTypeOf('notes.txt'), undefined);
    assert.equal(mediaTypeOf('Makefile'), undefined);
  });

  it('a sound file is an audio attachment for an agent that takes audio, else a mention', async () => {
    const file = { uri: 'file:///w/memo.wav', label: 'memo.wav', size: 4 };
    assert.deepEqual(await fileAttachment(file, all, async () => bytes), { kind: 'audio', mimeType: 'audio/wav', data: 'UklGRg==', label: 'memo.wav' });
    assert.deepEqual(await fileAttachment(file, { image: true, audio: false }, async () => bytes), { kind: 'file', uri: file.uri, label: 'memo.wav' });
  });

  it('a file over the limit is a mention, and is not read', async () => {
    let read = false;
    const big = await fileAttachment({ uri: 'file:///w/long.flac', label: 'long.flac', size: MEDIA_LIMIT + 1 }, all, async () => ((read = true), bytes));
    assert.equal(big.kind, 'file');
    assert.equal(read, false);
    // A size unknown beforehand is checked on the bytes.
    const grown = await fileAttachment({ uri: 'file:///w/x.ogg', label: 'x.ogg' }, all, async () => new Uint8Array(MEDIA_LIMIT + 1));
    assert.equal(grown.kind, 'file');
  });

  it('the page may send an audio attachment; a non-audio type or non-base64 data in one is refused', () => {
    const ok = parseWebviewMessage({ type: 'send', text: '', attachments: [{ kind: 'audio', mimeType: 'audio/ogg', data: 'T2dnUw==', label: 'a.ogg' }] });
    assert.ok(ok && ok.type === 'send' && ok.attachments[0]!.kind === 'audio');
    for (const attachment of [
      { kind: 'audio', mimeType: 'text/html', data: 'T2dnUw==', label: 'x' },
      { kind: 'audio', mimeType: 'audio/ogg', data: '<script>', label: 'x' },
    ]) {
      const reasons: string[] = [];
      assert.equal(parseWebviewMessage({ type: 'send', text: '', attachments: [attachment] }, (r) => reasons.push(r)), undefined, JSON.stringify(attachment));
      assert.match(reasons[0]!, /attachments/);
    }
  });
});
