import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import { AgentProcess, type AgentPriority } from '../../../src/acp/agentProcess';

// A stand-in agent that starts a command of its own, the way agents run builds, and prints both priorities.
const REPORT = `
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const child = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(require("node:os").getPriority()))'], { encoding: 'utf8' }));
process.stdout.write(JSON.stringify({ agent: os.getPriority(), child }) + '\\n');
`;

async function prioritiesUnder(priority: AgentPriority | undefined): Promise<{ agent: number; child: number; stderr: string[] }> {
  const stderr: string[] = [];
  const agent = new AgentProcess({ command: process.execPath, args: ['-e', REPORT], cwd: process.cwd(), priority }, (line) => stderr.push(line));
  let out = '';
  agent.child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await agent.exited;
  return { ...JSON.parse(out), stderr };
}

describe('the agent process priority', () => {
  const ours = os.getPriority();
  const belowNormal = os.constants.priority.PRIORITY_BELOW_NORMAL;

  it('belowNormal lowers the agent and the commands it runs, never raising either above ours', async () => {
    const seen = await prioritiesUnder('belowNormal');
    const expected = Math.max(ours, belowNormal);
    assert.deepEqual({ agent: seen.agent, child: seen.child }, { agent: expected, child: expected });
    assert.deepEqual(seen.stderr, []);
  });

  it('normal and unset leave the agent at our own priority', async () => {
    for (const priority of ['normal', undefined] as const) {
      const seen = await prioritiesUnder(priority);
      assert.deepEqual({ agent: seen.agent, child: seen.child }, { agent: ours, child: ours }, String(priority));
    }
  });
});
