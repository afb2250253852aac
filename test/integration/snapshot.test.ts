import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, howdah, waitSeen, workspaceFolder } from './helpers';
import { registerAgent } from './agentSetup';

// The snapshot taken before every turn: whatever changes a file during the turn — the agent's own writes, the
// commands it runs (`edits-commands` runs sed, rm, mv and node itself, no terminal/* and no fs/*), a write it does
// after the user refused it — the file is a pending change with its exact bytes before, or is listed as changed with
// its original not recorded, never silently missed.

interface Pending {
  fsPath: string;
  kind: string;
  added: number;
  removed: number;
  opaque?: { why: string; restorable: boolean };
}
interface EditsState {
  pending: Pending[];
  proposals: { path: string; uri: string }[];
  asked: { message: string; detail?: string }[];
  prepared: number;
  preparing: number;
}

const state = async () => (await vscode.commands.executeCommand('howdah.edits.test.state')) as EditsState;
const pendingFor = async (file: string) => (await state()).pending.find((p) => p.fsPath === file);
const ws = (rel: string) => path.join(workspaceFolder().fsPath, rel);
const agent = (scenario: string, env: Record<string, string> = {}) => registerAgent('snapshot', `test:${scenario}`, env);

/** Makes files (relative to the workspace) with exact bytes; returns them by path, to compare after a reject. */
function lay(files: Record<string, Buffer | string>): Map<string, Buffer> {
  const laid = new Map<string, Buffer>();
  for (const [rel, content] of Object.entries(files)) {
    const file = ws(rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    laid.set(file, fs.readFileSync(file));
  }
  return laid;
}

describe('the snapshot before every turn', function () {
  this.timeout(120_000);

  afterEach(async () => {
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await howdah()).stopAll();
  });

  it('snapshots a new session’s folders in the background, before any prompt', async () => {
    const api = await howdah();
    // an earlier session's snapshot still to start would pass for this one's
    await waitSeen("earlier sessions' snapshots started", async () => ((await state()).preparing === 0 ? true : undefined));
    const before = (await state()).prepared;
    await api.newSession(await agent('edits-commands'));
    // started a moment after the session opened (not in the moment the window shows it), with no prompt sent
    await waitSeen('the workspace snapshotted for the new session', async () => ((await state()).prepared > before ? true : undefined));
  });

  it("commands the agent runs itself: each change is reviewable with its exact original; Reject All gives every byte back", async () => {
    fs.rmSync(ws('cmd'), { recursive: true, force: true });
    const big = Buffer.alloc(60 * 1024 * 1024, 'y');
    const laid = lay({
      'cmd/sed.txt': 'an apple a day\nkeeps the apple away\n',
      'cmd/gone.txt': 'deleted by rm\n',
      'cmd/from.txt': 'moved by mv\n',
      'cmd/bom.txt': Buffer.from('\ufeffline one\r\nline two\r\nline three\r\n'),
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'cmd/big.log': big,
    });
    const api = await howdah();
    const key = await api.newSession(await agent('edits-commands'));
    assert.equal(await api.prompt(key, 'change things'), 'end_turn');
    assert.equal(agentText(api.snapshot(key)), 'done');

    const expected: Record<string, string> = {
      'cmd/sed.txt': 'modified',
      'cmd/gone.txt': 'deleted',
      'cmd/from.txt': 'deleted',
      'cmd/to.txt': 'created',
      'cmd/created.txt': 'created',
      'cmd/bom.txt': 'modified',
    };
    for (const [rel, kind] of Object.entries(expected)) {
      const change = await waitSeen(`${rel} pending`, () => pendingFor(ws(rel)));
      assert.equal(change.kind, kind, rel);
      assert.equal(change.opaque, undefined, `${rel} has a text review`);
    }
    const bom = (await pendingFor(ws('cmd/bom.txt')))!;
    assert.deepEqual([bom.added, bom.removed], [1, 1], 'the BOM/CRLF file: one line changed, not every line');

    // Not recorded: the dependency (excluded) and the 60 MB file (over the cap) — listed, with no Reject.
    const dep = await waitSeen('node_modules/dep/index.js listed', () => pendingFor(ws('node_modules/dep/index.js')));
    assert.equal(dep.opaque?.restorable, false);
    assert.match(dep.opaque!.why, /original not recorded \(excluded/);
    const huge = await waitSeen('cmd/big.log listed', () => pendingFor(ws('cmd/big.log')));
    assert.equal(huge.opaque?.restorable, false);
    assert.match(huge.opaque!.why, /original not recorded \(60 MB, over howdah\.snapshot\.maxFileSize\)/);

    // The turn's footer says so, and the tool card whose diff matches nothing on disk says that.
    const snapshot = await waitSeen('the footer', () => {
      const s = api.snapshot(key) as { entries: { kind: string; unrecorded?: { path: string; why: string }[] }[]; toolCalls: Record<string, { hostNotes?: { kind: string; path: string }[] }> };
      return s.entries.find((e) => e.kind === 'turn-end')?.unrecorded?.length === 2 ? s : undefined;
    });
    assert.deepEqual(snapshot.entries.find((e) => e.kind === 'turn-end')!.unrecorded!.map((f) => f.path).sort(), ['cmd/big.log', 'node_modules/dep/index.js']);
    assert.deepEqual(snapshot.toolCalls['tc-claim'].hostNotes, [{ kind: 'untied-diff', path: ws('cmd/claimed.txt') }]);
    assert.equal(snapshot.toolCalls['tc-bom'].hostNotes, undefined, 'the BOM diff is tied to its change');

    // "Restore files to before this message" says which files it cannot restore (declined here: Reject All follows).
    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Cancel');
    assert.equal(await vscode.commands.executeCommand('howdah.restoreCheckpoint', key, 0), false);
    const asked = (await state()).asked.at(-1)!;
    assert.match(asked.message, /Restore 6 files to before this message/);
    assert.match(asked.detail ?? '', /Not restored, their original was not recorded:\n(cmd\/big\.log|node_modules\/dep\/index\.js) — original not recorded/);

    // Reject All: every recorded file byte for byte as before the turn; the unrecorded ones stay listed.
    assert.equal(await vscode.commands.executeCommand('howdah.rejectAllChanges'), 6);
    for (const [file, bytes] of laid) {
      if (file.endsWith('big.log') || file.includes('node_modules')) continue;
      await waitSeen(`${path.basename(file)} restored`, () => fs.existsSync(file) && Buffer.compare(fs.readFileSync(file), bytes) === 0);
    }
    assert.ok(!fs.existsSync(ws('cmd/to.txt')) && !fs.existsSync(ws('cmd/created.txt')), 'created files removed');
    const left = (await state()).pending.map((p) => path.relative(workspaceFolder().fsPath, p.fsPath)).sort();
    assert.deepEqual(left, ['cmd/big.log', 'node_modules/dep/index.js']);
    // Accept takes an unrecorded change off the list; Reject does nothing to it.
    assert.equal(await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(ws('cmd/big.log'))), false);
    assert.equal(await vscode.commands.executeCommand('howdah.acceptFileChanges', vscode.Uri.file(ws('cmd/big.log'))), true);
    assert.ok(!(await pendingFor(ws('cmd/big.log'))));
    fs.rmSync(ws('cmd'), { recursive: true, force: true });
    fs.rmSync(ws('node_modules'), { recursive: true, force: true });
  });

  it('a refused write the agent then does itself is a pending change, and its card says so', async () => {
    const config = vscode.workspace.getConfiguration('howdah');
    await config.update('fs.write', 'ask', vscode.ConfigurationTarget.Global);
    try {
      const [[file, before]] = lay({ 'refused.txt': 'the user keeps this\n' });
      const api = await howdah();
      const key = await api.newSession(await agent('edits-refused-then-disk', { EDITS_TARGET: 'refused.txt' }));
      const turn = api.prompt(key, 'the agent wants this\n');
      const proposal = await waitSeen('the proposal', async () => (await state()).proposals.find((p) => p.path === file));
      await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.parse(proposal.uri));
      assert.equal(await turn, 'end_turn');
      assert.match(agentText(api.snapshot(key)), /write: The user rejected the change/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'the agent wants this\n', 'the agent wrote it anyway');

      const change = await waitSeen('the pending change', () => pendingFor(file));
      assert.equal(change.kind, 'modified');
      await waitSeen('the note on the card', () => {
        const calls = (api.snapshot(key) as { toolCalls: Record<string, { hostNotes?: { kind: string }[] }> }).toolCalls;
        return calls['tc-write'].hostNotes?.some((n) => n.kind === 'written-after-refusal');
      });
      await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
      await waitSeen('the exact original', () => Buffer.compare(fs.readFileSync(file), before) === 0);
      fs.rmSync(file);
    } finally {
      await config.update('fs.write', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
