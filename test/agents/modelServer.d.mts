// Types of modelServer.mjs for the TypeScript tests.

/** A request as every dialect reports it. */
export interface ModelRequest {
  dialect: string;
  path: string;
  /** 'other' for side endpoints (token counting) that never take a step. */
  kind: string;
  model?: string;
  stream: boolean;
  /** The tools the agent offered, in its own spelling; none means a side request (title, summary). */
  toolNames: string[];
  /** The user's last prompt in the conversation. */
  prompt: string;
  /** Model replies since that prompt: the index of the step that answers this request. */
  replies: number;
  /** Tool results since that prompt, in order. */
  toolResults: { id: string; text: string; isError: boolean }[];
  body: unknown;
}

export interface Step {
  text?: string;
  tool?: { name: string; input: unknown; id?: string };
  tools?: { name: string; input: unknown; id?: string }[];
  /** Stream `text`, then never finish the response until the agent closes it (for cancelling mid-turn). */
  stall?: boolean;
}

export interface Dialect {
  name: string;
  matches(method: string, path: string): boolean;
  parse(path: string, body: unknown): Omit<ModelRequest, 'dialect' | 'path'>;
  other(path: string, body: unknown, res: unknown): void;
  respond(request: ModelRequest, step: Step, res: unknown): Promise<void>;
}

export interface ModelServer {
  port: number;
  url: string;
  script(steps: (Step | ((request: ModelRequest) => Step))[]): void;
  requests: ModelRequest[];
  mainRequests(): ModelRequest[];
  close(): Promise<void>;
}

export function startModelServer(options?: { dialects?: Dialect[]; sideText?: string; log?: (line: string) => void }): Promise<ModelServer>;
