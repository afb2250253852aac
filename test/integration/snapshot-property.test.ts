import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import * as vscode from 'vscode';
import { howdah, waitFor, workspaceFolder } from './helpers';
import { registerAgent } from './agentSetup';

// Property: whatever an agent does to files with its own commands during a turn — writes in any encoding (UTF-8
// with or without BOM, CRLF, Latin-1 bytes, UTF-16 with BOM, binary), creates, deletes, renames — Reject All after
// the turn gives back the tree exactly as it was before the turn, byte for byte, with nothing left to review.

const ROOT = 'prop';
const PATHS = ['a.txt', 'b.md', 'sub/c.ts', 'sub/deep/d.txt', 'e.bin'];

const contents = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => Buffer.from(s, 'utf8')),
  fc.string({ maxLength: 60 }).map((s) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s.replace(/\n/g, '\r\n'), 'utf8')])),
  fc.array(fc.constantFrom('one', 'two', 'three'), { maxLength: 6 }).map((lines) => Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b.filter((x) => x !== 0))),
  fc.string({ maxLength: 30 }).map((s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.concat([Buffer.from([0]), Buffer.from(b)])),
);
const relPath = fc.constantFrom(...PATHS);
const op = fc.oneof(
  fc.record({ op: fc.constant('write' as const), path: relPath, content: contents }),
  fc.record({ op: fc.constant('delete' as const), path: relPath }),
  fc.record({ op: fc.constant('rename' as const), from: relPath, to: relPath }),
);
const tree = fc.dictionary(relPath, contents, { maxKeys: PATHS.length });

function readTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out[path.relative(root, abs)] = fs.readFileSync(abs).toString('hex');
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

describe('the snapshot before every turn (property)', function () {
  this.timeout(300_000);

  afterEach(async () => {
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    await (await howdah()).stopAll();
    fs.rmSync(path.join(workspaceFolder().fsPath, ROOT), { recursive: true, force: true });
  });

  it('random disk operations in any encoding during a turn, then Reject All: the tree is byte-identical to before the turn', async () => {
    const root = path.join(workspaceFolder().fsPath, ROOT);
    const devPath = vscode.extensions.getExtension('howdah.howdah')!.extensionPath;
    const api = await howdah();
    const key = await api.newSession(await registerAgent('prop', 'test:edits-ops', { APPLY_OPS: path.join(devPath, 'test', 'integration', 'scenarios', 'apply-ops.js') }));
    await fc.assert(
      fc.asyncProperty(tree, fc.array(op, { minLength: 1, maxLength: 8 }), async (initial, ops) => {
        fs.rmSync(root, { recursive: true, force: true });
        for (const [rel, bytes] of Object.entries(initial)) {
          fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
          fs.writeFileSync(path.join(root, rel), bytes);
        }
        const before = readTree(root);
        const prefixed = ops.map((o) =>
          o.op === 'write'
            ? { op: 'write', path: `${ROOT}/${o.path}`, base64: o.content.toString('base64') }
            : o.op === 'delete'
              ? { op: 'delete', path: `${ROOT}/${o.path}` }
              : { op: 'rename', from: `${ROOT}/${o.from}`, to: `${ROOT}/${o.to}` },
        );
        assert.equal(await api.prompt(key, JSON.stringify(prefixed)), 'end_turn');
        const after = readTree(root);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          await waitFor('the turn under review', async () => {
            const s = (await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: unknown[] };
            return s.pending.length > 0;
          });
        }
        // The sweep after the turn may still add what the watcher missed: wait until it has run, then reject.
        await new Promise((r) => setTimeout(r, 1500));
        await vscode.commands.executeCommand('howdah.rejectAllChanges');
        await waitFor(
          'the tree as before the turn',
          () => JSON.stringify(readTree(root)) === JSON.stringify(before),
          10_000,
        ).catch(async (e: Error) => {
          const s = (await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: unknown[]; log: string[] };
          throw new Error(`${e.message}\nbefore ${JSON.stringify(before)}\nnow ${JSON.stringify(readTree(root))}\npending ${JSON.stringify(s.pending)}\n${s.log.slice(-20).join('\n')}`);
        });
        const left = ((await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: { fsPath: string }[] }).pending.filter((p) => p.fsPath.startsWith(root));
        assert.deepEqual(left, [], 'nothing left to review');
      }),
      { numRuns: 10, endOnFailure: true },
    );
  });
});
