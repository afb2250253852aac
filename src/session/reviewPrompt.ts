import type { PromptBlock } from '../acp/schema/agentMethods';

/** One comment the user left on a line range of a file the agent changed (the review's Comments). */
export interface ReviewComment {
  /** `file:` URI of the file. */
  readonly uri: string;
  /** Workspace-relative path, as the agent knows the file. */
  readonly path: string;
  /** 0-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** The lines commented on, as they read when the comment was sent. */
  readonly quoted: string;
  readonly text: string;
}

/** Quoted code longer than this is cut (a comment on a whole file must not fill the agent's context). */
export const MAX_QUOTED_LINES = 60;
export const MAX_QUOTED_CHARS = 6_000;

/**
 * The prompt that sends a review round to the agent: a short instruction, then per comment the file as a
 * `resource_link` (titled with its line range), the quoted lines and the comment. Every agent reads text; the link
 * is for the agents that resolve files themselves. Comments come in file order, then line order.
 */
export function reviewPromptBlocks(comments: readonly ReviewComment[]): PromptBlock[] {
  if (comments.length === 0) return [];
  const sorted = [...comments].sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine || a.endLine - b.endLine);
  const files = new Set(sorted.map((c) => c.path)).size;
  const blocks: PromptBlock[] = [
    {
      type: 'text',
      text:
        `Review of your changes: ${count(sorted.length, 'comment')} on ${count(files, 'file')}. ` +
        'Address each one (change the code, or say why not). Each gives the file, the lines as they read now, and the comment.',
    },
  ];
  sorted.forEach((comment, i) => {
    const lines = lineRange(comment);
    blocks.push({ type: 'resource_link', uri: comment.uri, name: comment.path, title: `${comment.path}, ${lines}` });
    blocks.push({ type: 'text', text: `Comment ${i + 1} of ${sorted.length}, on ${comment.path} ${lines}:\n${quote(comment.quoted)}\n${comment.text.trim()}` });
  });
  return blocks;
}

function lineRange(comment: ReviewComment): string {
  const start = comment.startLine + 1;
  const end = Math.max(comment.endLine, comment.startLine) + 1;
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

/** A fenced block the quoted code cannot close early (its fence is longer than any backtick run in it). */
function quote(text: string): string {
  let lines = text.replace(/\r\n?/g, '\n').split('\n');
  let cut = '';
  if (lines.length > MAX_QUOTED_LINES) {
    cut = `\n(${lines.length - MAX_QUOTED_LINES} more lines not quoted)`;
    lines = lines.slice(0, MAX_QUOTED_LINES);
  }
  let body = lines.join('\n');
  if (body.length > MAX_QUOTED_CHARS) {
    cut = `\n(${body.length - MAX_QUOTED_CHARS} more characters not quoted)`;
    body = body.slice(0, MAX_QUOTED_CHARS);
  }
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${body}\n${fence}${cut}`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
