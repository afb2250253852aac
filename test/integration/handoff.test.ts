import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { agentText, howdah } from './helpers';

interface Snapshot {
  agentName: string;
  entries: { kind: string; role?: string; text?: string; title?: string; description?: string }[];
}
const snap = (api: HowdahApi, key: string) => api.snapshot(key) as Snapshot;

describe('hand over a conversation to another agent', function () {
  this.timeout(60000);

  it('Continue with Another Agent starts the other agent, which gets the conversation with the next prompt; the first stays open', async () => {
    const api = await howdah();
    const first = await api.newSession('fake');
    api.setActive(first);
    assert.equal(await api.prompt(first, 'Show me an example'), 'end_turn');
    const echo = await registerAgent('echo', 'test:echo', {}, 'Fake Echo');
    const second = (await vscode.commands.executeCommand('howdah.handOff', echo)) as string | undefined;
    assert.ok(second && second !== first, 'a new session');
    const note = snap(api, second).entries.find((e) => e.kind === 'notice');
    assert.equal(note?.title, 'Continued from a copy of the conversation with Fake');
    assert.match(note?.description ?? '', /^\d+ messages and tool calls go to Fake Echo with your next message/);

    assert.equal(await api.prompt(second, 'Carry on'), 'end_turn');
    const heard = agentText(snap(api, second));
    // The echo agent lists each block it got: the conversation first (embedded, or as text), then the new message.
    assert.match(heard, /^- (resource: howdah:\/\/conversation\/\S+ \(\d+ chars\)|text: "This conversation started with Fake)/);
    assert.match(heard, /- text: "Carry on"\s*$/);
    assert.equal(await api.prompt(second, 'Again'), 'end_turn');
    assert.match(agentText(snap(api, second)), /- text: "Again"\s*$/, 'only the first prompt carries the conversation');
    assert.ok(api.sessionKeys().includes(first), 'the first conversation stays open');
    await api.close(second);
    await api.close(first);
  });
});
