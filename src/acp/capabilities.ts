/** What we advertise in `initialize` (DIGEST §5, §26), built from the user's settings: every capability is opt-in. */
export interface ClientCapabilities {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean };
  terminal?: boolean;
  auth?: { terminal?: boolean };
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  session?: { configOptions?: { boolean?: Record<string, never> }; notices?: Record<string, never>; compaction?: Record<string, never> };
  _meta?: Record<string, unknown>;
}

export interface CapabilitySettings {
  /** `howdah.fs.read` */
  readFiles: boolean;
  /** `howdah.fs.write` */
  writeFiles: 'apply' | 'ask' | 'off';
  /** `howdah.terminal` */
  terminal: 'allow' | 'ask' | 'off';
  /** Whether we can run an agent's terminal login in a visible terminal. */
  terminalAuth: boolean;
}

export function buildClientCapabilities(settings: CapabilitySettings): ClientCapabilities {
  return {
    fs: { readTextFile: settings.readFiles, writeTextFile: settings.writeFiles !== 'off' },
    terminal: settings.terminal !== 'off',
    auth: { terminal: settings.terminalAuth },
    // compaction: one timeline entry per compactionId, its summary folded under it (src/session/compactions.ts).
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
    // Forms the user fills in, and links they agree to open (shown in full, opened only on Open), in the transcript
    // or the start area (DIGEST §19).
    elicitation: { form: {}, url: {} },
    // Agents that run commands themselves then stream the output to us (Claude Code, Pi): agents-in-the-wild.md.
    _meta: { terminal_output: true },
  };
}
