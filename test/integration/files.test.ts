import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, howdah, workspaceFolder } from './helpers';
import { registerAgent } from './agentSetup';

// Agents registered here run test/integration/scenarios/files-*.json, reading $READ_TARGET through fs/read_text_file.

/** A fake agent running test/integration/scenarios/<scenario>.json with `env`; resolves to its id. */
const agent = (scenario: string, env: Record<string, string>) => registerAgent('files', `test:${scenario}`, env);

async function read(target: string): Promise<string> {
  const api = await howdah();
  const key = await api.newSession(await agent('files-read', { READ_TARGET: target }));
  await api.prompt(key, 'read it');
  return agentText(api.snapshot(key));
}

describe('agent file reads', function () {
  this.timeout(60000);
  const ws = (rel: string) => path.join(workspaceFolder().fsPath, rel);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await howdah()).stopAll();
  });

  it('an open buffer with unsaved changes is what the agent reads, sliced by line and limit', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(ws('notes.md')));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), 'first\nSECOND UNSAVED\nthird\n'));
    assert.equal(await read('notes.md'), 'all=first\nSECOND UNSAVED\nthird\n|slice=SECOND UNSAVED\n|error= ');
  });

  it('a file on disk is decoded as VS Code would: the BOM goes, CRLF stays', async () => {
    assert.equal(await read('crlf-bom.txt'), 'all=line one\r\nline two\r\nline three (no final newline)|slice=line two\r\n|error= ');
  });

  it('a missing file is -32002; a binary file and a link out of the workspace are refused with a reason', async () => {
    assert.match(await read('no-such-file.md'), /error=-32002 File not found/);
    fs.writeFileSync(ws('binary.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    assert.match(await read('binary.bin'), /error=-32602 .*binary file/);
    const outside = fs.mkdtempSync(path.join(path.dirname(workspaceFolder().fsPath), 'outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret.txt'), ws('link-out.txt'));
    const refused = await read('link-out.txt');
    assert.match(refused, /error=-32602 Refused path .*outside the workspace/);
    assert.ok(!refused.includes('all=secret'));
  });

  it('prints the time to read a 100-line slice of an open 10 MB document and of the same file on disk', async () => {
    const big = ws('big.txt');
    const line = 'x'.repeat(90) + '\n';
    fs.writeFileSync(big, Array.from({ length: 110_000 }, (_, i) => `${String(i).padStart(8, '0')} ${line}`).join(''));
    const api = await howdah();
    const time = async () => {
      const key = await api.newSession(await agent('files-slice', { READ_TARGET: 'big.txt' }));
      const start = performance.now();
      await api.prompt(key, 'read');
      const ms = (performance.now() - start) / 5;
      assert.equal(agentText(api.snapshot(key)), 'length=10000', 'read 100 lines');
      return ms;
    };
    const disk = await time();
    await vscode.window.showTextDocument(vscode.Uri.file(big));
    const open = await time();
    console.log(`      fs/read_text_file, 100 lines of a ${(fs.statSync(big).size / 1e6).toFixed(1)} MB file: open document ${open.toFixed(1)} ms, disk ${disk.toFixed(1)} ms per read (round trip through the agent)`);
  });
});
