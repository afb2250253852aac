import type { AgentCapabilities } from '../acp/schema/agentMethods';

/**
 * `additionalDirectories` (DIGEST §7): the folders besides `cwd` a session works in, told to an agent that
 * advertised `sessionCapabilities.additionalDirectories`. Built from the session's own sandbox roots, so what the
 * agent is told and what its file access allows are one set: `[cwd, ...additionalDirectories]` = the roots.
 */
export function additionalDirectories(cwd: string, roots: readonly string[]): string[] {
  const seen = new Set([cwd]);
  const out: string[] = [];
  for (const root of roots) {
    if (seen.has(root)) continue;
    seen.add(root);
    out.push(root);
  }
  return out;
}

/**
 * `params` with `additionalDirectories` when the agent supports them, else unchanged (sending them unadvertised
 * is not allowed). For load and resume the list is the complete one: it is sent even when empty.
 */
export function withDirectories<P extends { cwd: string }>(params: P, caps: AgentCapabilities | undefined, roots: readonly string[]): P & { additionalDirectories?: string[] } {
  if (!caps?.sessionCapabilities.additionalDirectories) return params;
  return { ...params, additionalDirectories: additionalDirectories(params.cwd, roots) };
}
