import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor, workspaceFolder } from './helpers';

/** The 44-byte header of an empty WAV file: enough to be a sound file by name and bytes. */
const WAV = Buffer.from('UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=', 'base64');

describe('attachments: sound files for agents that take audio', function () {
  this.timeout(60000);
  const file = () => path.join(workspaceFolder().fsPath, 'memo.wav');
  before(() => fs.writeFileSync(file(), WAV));
  after(async () => {
    fs.rmSync(file(), { force: true });
    await (await howdah()).stopAll();
  });

  it('Add File to Chat attaches a sound file inline for an agent with promptCapabilities.audio, and the agent gets an audio block', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('audio', 'test:echo-audio', {}, 'Fake Audio'));
    api.setActive(key);
    await vscode.commands.executeCommand('howdah.addFile', vscode.Uri.file(file()));
    const [attached] = api.panelAttachments() as { kind: string; mimeType?: string; data?: string; label: string }[];
    assert.deepEqual([attached.kind, attached.mimeType, attached.label], ['audio', 'audio/wav', 'memo.wav']);
    assert.equal(attached.data, WAV.toString('base64'));
    await api.panelIntent({ type: 'send', text: 'what do you hear?', attachments: [attached] });
    const heard = await waitFor('the echo', () => agentText(api.snapshot(key)) || undefined);
    assert.match(heard, /Received 2 prompt block\(s\)/);
    assert.match(heard, /- audio: audio\/wav/);
  });

  it('for an agent without audio the same file is a mention the agent reads itself', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('noaudio', 'test:echo', {}, 'Fake Echo'));
    api.setActive(key);
    await vscode.commands.executeCommand('howdah.addFile', vscode.Uri.file(file()));
    const [attached] = api.panelAttachments() as { kind: string; label: string }[];
    assert.deepEqual([attached.kind, attached.label], ['file', 'memo.wav']);
  });
});
