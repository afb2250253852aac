import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, howdah } from './helpers';

describe('activation', () => {
  it('runs in a real extension host with the extension under development', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    console.log(`      vscode ${vscode.version}, node ${process.version}, appHost ${vscode.env.appHost}`);
  });

  it('activates and returns the HowdahApi', async () => {
    const api = await howdah();
    for (const method of ['newSession', 'prompt', 'cancel', 'snapshot', 'agentPid', 'sessionKeys', 'stopAll'] as const) {
      assert.equal(typeof api[method], 'function', `api.${method}`);
    }
  });

  it('contributes the howdah.newSession command', async () => {
    await howdah();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('howdah.newSession'), 'howdah.newSession is registered');
  });
});
