import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, alive, howdah, waitFor } from './helpers';

/** Log files under `dir` (the server's user-data folder) whose contents include `needle`. */
function logFilesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log') && fs.readFileSync(p, 'utf8').includes(needle)) found.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return found;
}

describe('the agent process', () => {
  afterEach(async () => (await howdah()).stopAll());

  it("the agent's stderr reaches its output channel", async () => {
    // agent `test-stderr-line` runs test/integration/scenarios/stderr-line.json. A LogOutputChannel
    // ("Howdah: <agent name>") is backed by a log file under the server's user-data folder.
    const api = await howdah();
    const key = await api.newSession('test-stderr-line');
    await api.prompt(key, 'write to stderr');
    // stderr is its own pipe: the line may come after the turn's answer on stdout
    await waitFor('api.agentLog to have the stderr line', () => api.agentLog(key).some(l => l.includes('stderr-marker-5d1c')) || undefined);
    const userData = process.env.HOWDAH_TEST_USER_DATA;
    assert.ok(userData, 'the harness passes HOWDAH_TEST_USER_DATA');
    const files = await waitFor('a log file with the stderr line', () => {
      const f = logFilesContaining(path.join(userData, 'logs'), 'stderr-marker-5d1c');
      return f.length ? f : undefined;
    }, 10000);
    assert.ok(files.some(f => path.basename(f).includes('Howdah')), `an output channel named "Howdah: …" has it: ${files.join(', ')}`);
  });

  it('a crashing agent is reported with its exit code and stderr, and leaves no process', async () => {
    const api = await howdah();
    const key = await api.newSession('fake-crash');
    const pid = await waitFor('the agent pid', () => api.agentPid(key));
    await assert.rejects(api.prompt(key, 'do the work'), (err: Error) => {
      assert.match(err.message, /\b3\b/, `mentions exit code 3: ${err.message}`);
      assert.match(err.message, /simulated crash/, `mentions the stderr tail: ${err.message}`);
      return true;
    });
    assert.ok(agentText(api.snapshot(key)).startsWith('Starting the work'), 'the transcript is kept');
    await waitFor(`agent ${pid} to be gone`, () => !alive(pid), 5000);
    assert.throws(() => process.kill(pid, 0), 'process.kill(pid, 0) throws');
  });

  it('starts agents below the editor\'s priority unless howdah.agentPriority says normal, read at each start', async () => {
    const api = await howdah();
    const config = () => vscode.workspace.getConfiguration('howdah');
    const ours = os.getPriority();
    const priorityOf = async (key: string) => os.getPriority(await waitFor('the agent pid', () => api.agentPid(key)));
    try {
      const key = await api.newSession('fake');
      assert.equal(await priorityOf(key), Math.max(ours, os.constants.priority.PRIORITY_BELOW_NORMAL), 'the default, belowNormal');
      await config().update('agentPriority', 'normal', vscode.ConfigurationTarget.Global);
      await api.restart(key);
      assert.equal(await priorityOf(key), ours, 'normal, after a restart');
      await config().update('agentPriority', 'Normal ', vscode.ConfigurationTarget.Global);
      await api.restart(key);
      assert.equal(await priorityOf(key), Math.max(ours, os.constants.priority.PRIORITY_BELOW_NORMAL), 'a value not in the list is the default');
    } finally {
      await config().update('agentPriority', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

