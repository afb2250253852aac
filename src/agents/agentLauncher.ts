import * as vscode from 'vscode';
import { AgentConnection } from '../acp/agentConnection';
import type { AgentPriority, LaunchSpec } from '../acp/agentProcess';
import { buildClientCapabilities, type CapabilitySettings } from '../acp/capabilities';
import type { ClientHandlers } from '../acp/clientHandlers';
import { ProtocolRecorder } from '../acp/protocolRecorder';
import { formatTrace, type TraceLevel } from '../acp/trace';
import type { AgentLog } from './agentLog';
import { FormAnswerRedaction } from './formAnswerRedaction';

/** The capabilities a new connection offers, from the user's settings at the time it starts. */
export function capabilitySettings(terminalsAvailable: boolean): CapabilitySettings {
  const config = vscode.workspace.getConfiguration('howdah');
  return {
    readFiles: config.get<boolean>('fs.read', true),
    writeFiles: config.get<'apply' | 'ask' | 'off'>('fs.write', 'apply'),
    terminal: terminalsAvailable ? config.get<'allow' | 'ask' | 'off'>('terminal', 'allow') : 'off',
    terminalAuth: true,
  };
}

/** `howdah.agentPriority` at the time an agent starts: anything but an explicit `normal` (a typo too) is the default. */
function agentPriority(): AgentPriority {
  return vscode.workspace.getConfiguration('howdah').get('agentPriority') === 'normal' ? 'normal' : 'belowNormal';
}

/**
 * `howdah.trace`, kept current by a configuration listener: the trace callback runs for every message, so reading the
 * configuration there would put a settings lookup on the streaming path.
 */
let traceLevel: TraceLevel | undefined;
const readTraceLevel = () => vscode.workspace.getConfiguration('howdah').get<TraceLevel>('trace', 'off');
function currentTraceLevel(): TraceLevel {
  return (traceLevel ??= readTraceLevel());
}

/** Follows `howdah.trace` for the extension's lifetime (the listener is owned by `context`). */
export function registerTraceSetting(context: vscode.ExtensionContext): void {
  traceLevel = readTraceLevel();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('howdah.trace')) traceLevel = readTraceLevel();
    }),
  );
}

/**
 * Spawns an agent (at the priority `howdah.agentPriority` says) and connects ACP to it, with its stderr and the protocol
 * trace going to the agent's log. Every agent process starts here, so the setting is read here, at each start.
 */
export function launchAgent(
  launch: LaunchSpec,
  name: string,
  version: string,
  settings: CapabilitySettings,
  log: AgentLog,
  handlers: ClientHandlers,
): { connection: AgentConnection; recorder: ProtocolRecorder } {
  const spec: LaunchSpec = { ...launch, priority: agentPriority() };
  const capabilities = buildClientCapabilities(settings);
  const recorder = new ProtocolRecorder(capabilities);
  const answers = new FormAnswerRedaction();
  log.info(`Starting ${name}: ${[spec.command, ...spec.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')} (in ${spec.cwd}${spec.priority === 'belowNormal' ? ', below-normal priority: howdah.agentPriority' : ''})`);
  const connection = new AgentConnection(spec, {
    name,
    clientInfo: { name: 'howdah', title: 'Howdah', version },
    capabilities,
    stderr: (line) => log.stderr(line),
    trace: (raw) => {
      // What the user typed into a secret-looking form field is never recorded (the agent gets it all the same).
      const event = answers.redact(raw);
      recorder.trace(event);
      const level = currentTraceLevel();
      if (level === 'off') return;
      const line = formatTrace(event, level);
      if (line) log.trace(line);
    },
    handlers: {
      ...handlers,
      warning: (warning) => {
        recorder.warning(warning);
        log.warn(`Protocol: ${warning.message}${warning.raw ? ` — ${warning.raw.slice(0, 200)}` : ''}`);
        handlers.warning?.(warning);
      },
    },
  });
  return { connection, recorder };
}
