import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { AcpConnection } from '../../../src/acp/connection';
import { Session } from '../../../src/session/session';
import { MemoryPeer } from './memoryPeer';

/**
 * A Session with id `s1` wired to an in-memory agent: the test plays the agent through `peer`. With `initialize`, the
 * connection has been initialized first (protocol version 1, the agent's capabilities `agentCapabilities` or the defaults).
 */
export async function memorySession(options: { initialize?: boolean; agentCapabilities?: Record<string, unknown> } = {}): Promise<{ peer: MemoryPeer; session: Session; acp: AcpConnection }> {
  const peer = new MemoryPeer();
  let session!: Session;
  const acp = new AcpConnection(peer.toUs, peer.fromUs, buildClientCapabilities({ readFiles: false, writeFiles: 'off', terminal: 'off', terminalAuth: false }), {
    sessionUpdate: (n) => session.apply(n.update),
    requestPermission: (params, signal) => session.requestPermission(params, signal),
    createElicitation: (params, signal) => session.elicitations.ask(params, signal),
    completeElicitation: ({ elicitationId }) => elicitationId != null && session.elicitations.complete(elicitationId),
  });
  if (options.initialize ?? true) {
    const init = acp.initialize({ name: 't', version: '0' });
    peer.send({ jsonrpc: '2.0', id: (await peer.next()).id, result: { protocolVersion: 1, ...(options.agentCapabilities ? { agentCapabilities: options.agentCapabilities } : {}) } });
    await init;
  }
  session = new Session(acp, 's1', {});
  return { peer, session, acp };
}
