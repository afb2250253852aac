import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { agentText, howdah, workspaceFolder } from './helpers';

interface Snapshot {
  agentName: string;
  entries: { id: number; kind: string; role?: string; text?: string; title?: string; description?: string }[];
}
const snap = (api: HowdahApi, key: string) => api.snapshot(key) as Snapshot;
const userTexts = (s: Snapshot) => s.entries.filter((e) => e.kind === 'message' && e.role === 'user').map((e) => e.text);

describe('hand over a conversation to another agent', function () {
  this.timeout(60000);
  afterEach(async () => {
    const api = await howdah();
    for (const key of api.sessionKeys()) await api.close(key);
  });

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
    assert.match(heard, /^Received 2 prompt block\(s\):\n- (resource: howdah:\/\/conversation\/\S+ \(\d+ chars\)|text: "This conversation started with Fake and continues here)/);
    assert.match(heard, /## User\\nShow me an example|\(\d+ chars\)/, 'the first message is in it');
    assert.match(heard, /- text: "Carry on"\s*$/);
    assert.equal(await api.prompt(second, 'Again'), 'end_turn');
    assert.match(agentText(snap(api, second)), /Received 1 prompt block\(s\):\n- text: "Again"\s*$/, 'only the first prompt carries the conversation');
    assert.ok(api.sessionKeys().includes(first), 'the first conversation stays open');
  });

  it('Fork from here: a new conversation with the same agent, the transcript up to that message copied, the rest left out', async () => {
    const api = await howdah();
    const echo = await registerAgent('echo', 'test:echo', {}, 'Fake Echo');
    const source = await api.newSession(echo);
    api.setActive(source);
    await api.prompt(source, 'one');
    await api.prompt(source, 'two');
    const entries = (api.snapshot(source) as { entries: { id: number; kind: string; role?: string }[] }).entries;
    const firstAnswer = entries.find((e) => e.kind === 'message' && e.role === 'agent')!;
    await api.panelIntent({ type: 'fork', entryId: firstAnswer.id });
    const fork = api.sessionKeys().at(-1)!;
    assert.notEqual(fork, source, 'a new conversation');
    assert.equal(snap(api, fork).agentName, 'Fake Echo', 'with the same agent');
    const copied = snap(api, fork).entries;
    assert.deepEqual(copied.filter((e) => e.kind === 'message').map((e) => e.role), ['user', 'agent'], 'up to and including the message forked from');
    assert.equal(copied.at(-1)?.title, 'Continued from a copy of the conversation up to here');
    assert.equal(await api.prompt(fork, 'three'), 'end_turn');
    const heard = snap(api, fork).entries.filter((e) => e.kind === 'message' && e.role === 'agent').at(-1)?.text ?? '';
    assert.match(heard, /^Received 2 prompt block\(s\):\n- (resource: howdah:\/\/conversation\/\S+ \(\d+ chars\)|text: "This conversation started with Fake Echo)/);
    assert.doesNotMatch(heard, /User\\ntwo/, 'what came after the fork point is not in it');
    assert.match(heard, /- text: "three"\s*$/);
    assert.equal(userTexts(snap(api, source)).length, 2, 'the source conversation is untouched');
  });

  it('Fork from here at the end, with an agent that forks (session/fork): the agent’s own fork continues in a process of its own, nothing carried', async () => {
    const api = await howdah();
    const agent = await registerAgent('echo-fork', 'test:echo-fork', {}, 'Fake Forker');
    const source = await api.newSession(agent);
    api.setActive(source);
    await api.prompt(source, 'one');
    const sourceId = (api.snapshot(source) as { sessionId: string }).sessionId;
    const answer = (api.snapshot(source) as { entries: { id: number; kind: string; role?: string }[] }).entries.filter((e) => e.role === 'agent').at(-1)!;
    const before = api.sessionKeys();
    await api.panelIntent({ type: 'fork', entryId: answer.id });
    const fork = api.sessionKeys().find((k) => !before.includes(k))!;
    assert.ok(fork, 'a new conversation');
    const forked = api.snapshot(fork) as { sessionId: string; entries: { kind: string; role?: string; title?: string }[] };
    assert.equal(forked.sessionId, `${sourceId}-fork-2`, 'the session the agent forked, resumed');
    assert.notEqual(api.agentPid(fork), api.agentPid(source), 'in a process of its own');
    assert.deepEqual(userTexts(forked as never), ['one'], 'the transcript copied');
    assert.ok(forked.entries.some((e) => e.title === 'Forked by the agent from here'));
    assert.equal(await api.prompt(fork, 'two'), 'end_turn');
    assert.match(agentText(api.snapshot(fork)), /Received 1 prompt block\(s\):\n- text: "two"\s*$/, 'the agent knows the conversation: nothing is carried');

    // Not at the end: the agent's fork would hold the later turns too, so the conversation is carried instead.
    await api.prompt(source, 'later');
    const before2 = api.sessionKeys();
    await api.panelIntent({ type: 'fork', entryId: answer.id });
    const carried = api.sessionKeys().find((k) => !before2.includes(k))!;
    assert.match((api.snapshot(carried) as { sessionId: string }).sessionId, /^sess-\d+$/, 'a new session, not a fork');
    assert.equal(await api.prompt(carried, 'three'), 'end_turn');
    assert.match(agentText(api.snapshot(carried)), /Received 2 prompt block\(s\)/, 'the conversation up to there goes with the first prompt');
  });

  it('an agent that cannot resume gets the conversation with the next message after a restart (a branch read back, a reload)', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('echo', 'test:echo', {}, 'Fake Echo'));
    await api.prompt(key, 'remember howdah-delta');
    await api.stopAll();
    assert.equal(await api.prompt(key, 'and now?'), 'end_turn');
    const s = snap(api, key);
    assert.ok(s.entries.some((e) => e.kind === 'error' && /cannot resume sessions: this is a new conversation for the agent; the conversation so far \(2 messages and tool calls\) goes to it with your next message/.test((e as { message?: string }).message ?? '')));
    const heard = s.entries.filter((e) => e.kind === 'message' && e.role === 'agent').at(-1)?.text ?? '';
    assert.match(heard, /^Received 2 prompt block\(s\):/, 'the conversation, then the message');
    assert.match(heard, /howdah-delta/);
    assert.match(heard, /- text: "and now\?"\s*$/);
  });

  it('Edit message: the files go back to before it (asked first), the conversation continues from there as a new branch, and the old branch is a click away', async () => {
    const api = await howdah();
    const file = path.join(workspaceFolder().fsPath, 'edit-resend.txt');
    fs.writeFileSync(file, 'original\n');
    const writer = await registerAgent('edit-resend', 'test:edits-write', { EDITS_TARGET: 'edit-resend.txt' }, 'Fake Writer');
    const source = await api.newSession(writer);
    api.setActive(source);
    await api.prompt(source, 'first turn\n');
    await api.prompt(source, 'second turn\n');
    await api.prompt(source, 'third turn\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'third turn\n');
    const second = (api.snapshot(source) as { entries: { id: number; kind: string; role?: string; text?: string }[] }).entries.find((e) => e.role === 'user' && e.text === 'second turn\n')!;
    const before = api.sessionKeys();
    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Restore');
    await api.panelIntent({ type: 'editMessage', entryId: second.id, text: 'edited second\n' });
    const asked = ((await vscode.commands.executeCommand('howdah.edits.test.state')) as { asked: { message: string }[] }).asked.at(-1);
    assert.match(asked?.message ?? '', /Restore 1 file/, 'the files to restore were listed first');
    const branch = api.sessionKeys().find((k) => !before.includes(k))!;
    assert.ok(branch, 'a new conversation');
    assert.equal(api.sessionKeys().indexOf(branch), before.indexOf(source), 'in the place of the one it branched from');
    assert.ok(!api.sessionKeys().includes(source), 'the old branch is closed, not another tab');
    const s = snap(api, branch);
    assert.deepEqual(userTexts(s), ['first turn\n', 'edited second\n'], 'the message before it, then the edited one');
    assert.ok(s.entries.some((e) => e.title === 'Continued from a copy of the conversation up to here'));
    assert.ok(fs.readFileSync(file, 'utf8').endsWith('edited second\n'), 'the new branch wrote from the restored state');
    assert.deepEqual(api.branches(branch), [{ turn: 1, keys: [source, branch], index: 1 }], 'Branch 2 of 2 on the edited message');
    assert.deepEqual(api.branches(branch).map((b) => b.turn), [1], 'and on no other message');

    const edited = s.entries.find((e) => e.role === 'user' && e.text === 'edited second\n')!;
    await api.panelIntent({ type: 'switchBranch', entryId: edited.id, direction: -1 });
    assert.ok(api.sessionKeys().includes(source) && !api.sessionKeys().includes(branch), 'Previous branch shows the old one in its place');
    assert.deepEqual(userTexts(snap(api, source)), ['first turn\n', 'second turn\n', 'third turn\n'], 'the old branch, unchanged, read back');
    assert.deepEqual(api.branches(source), [{ turn: 1, keys: [source, branch], index: 0 }], 'Branch 1 of 2');
    await api.panelIntent({ type: 'switchBranch', entryId: second.id, direction: -1 });
    assert.ok(api.sessionKeys().includes(source), 'there is nothing before the first branch');
    await api.panelIntent({ type: 'switchBranch', entryId: second.id, direction: 1 });
    assert.deepEqual(userTexts(snap(api, branch)), ['first turn\n', 'edited second\n'], 'Next branch comes back to the edit');
    assert.equal(await api.prompt(branch, 'fourth turn\n'), 'end_turn', 'a branch read back continues with its agent');

    await api.delete(branch);
    assert.deepEqual(api.branches(source), [], 'deleting a branch leaves the other without a branch control');
    // Later suites count what is under review: leave nothing behind.
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    fs.rmSync(file, { force: true });
  });

  it('Regenerate on an answer sends the message it answers again, from before it, as a new branch', async () => {
    const api = await howdah();
    const echo = await registerAgent('echo', 'test:echo', {}, 'Fake Echo');
    const source = await api.newSession(echo);
    api.setActive(source);
    await api.prompt(source, 'tell me once');
    const answer = (api.snapshot(source) as { entries: { id: number; kind: string; role?: string }[] }).entries.find((e) => e.role === 'agent')!;
    const before = api.sessionKeys();
    await api.panelIntent({ type: 'regenerate', entryId: answer.id });
    const branch = api.sessionKeys().find((k) => !before.includes(k))!;
    assert.ok(branch);
    assert.deepEqual(userTexts(snap(api, branch)), ['tell me once'], 'the same message, once, with nothing before it');
    assert.match(agentText(snap(api, branch)), /- text: "tell me once"\s*$/, 'sent again to the agent');
    assert.deepEqual(api.branches(branch), [{ turn: 0, keys: [source, branch], index: 1 }], 'the first answer is the other branch');
  });
});
