import type { PromptBlock } from '../acp/schema/agentMethods';
import type { Attachment } from '../shared/protocol';

/**
 * Turns what the user typed and attached into ACP prompt blocks, within what the agent said it accepts: files are
 * embedded (`resource` with their text) only with `embeddedContext`, otherwise linked (`resource_link`); images only
 * with `image`, sound only with `audio`. Pure apart from `readText`, which the host implements (and which refuses files outside the workspace).
 */

export interface PromptContext {
  readonly embeddedContext: boolean;
  readonly image: boolean;
  readonly audio?: boolean;
  /** The text of a workspace file, or undefined when it cannot or may not be read. */
  readText(uri: string): Promise<string | undefined>;
  /** What an `@problems` / `@terminal` mention stands for when the prompt is sent (see `SPECIAL_MENTIONS`). */
  readContext?(source: 'problems' | 'terminal'): Promise<{ label: string; text: string } | undefined>;
}

/** Mentions that are not files: offered by the `@` completion, read when the prompt is sent. */
export const SPECIAL_MENTIONS = [
  { uri: 'howdah:problems', label: 'problems', source: 'problems' },
  { uri: 'howdah:terminal', label: 'terminal', source: 'terminal' },
] as const;

/** Above this a file is linked, not embedded: the agent can read it itself. */
export const EMBED_LIMIT = 256 * 1024;

export async function buildPromptBlocks(text: string, attachments: readonly Attachment[], context: PromptContext): Promise<PromptBlock[]> {
  const blocks: PromptBlock[] = [];
  if (text.trim() !== '') blocks.push({ type: 'text', text });
  for (const attachment of attachments) {
    const block = await attachmentBlock(attachment, context);
    if (block) blocks.push(block);
  }
  return blocks;
}

async function attachmentBlock(attachment: Attachment, context: PromptContext): Promise<PromptBlock | undefined> {
  switch (attachment.kind) {
    case 'file': {
      const special = SPECIAL_MENTIONS.find((m) => m.uri === attachment.uri);
      if (special) {
        const read = await context.readContext?.(special.source);
        return read && contextBlock({ kind: 'context', source: special.source, ...read }, context);
      }
      if (context.embeddedContext) {
        const text = await context.readText(attachment.uri);
        if (text !== undefined && text.length <= EMBED_LIMIT) return { type: 'resource', resource: { uri: attachment.uri, text } };
      }
      return { type: 'resource_link', uri: attachment.uri, name: baseName(attachment.label) };
    }
    case 'selection': {
      const range = attachment.startLine === attachment.endLine ? `L${attachment.startLine}` : `L${attachment.startLine}-L${attachment.endLine}`;
      if (context.embeddedContext) return { type: 'resource', resource: { uri: `${attachment.uri}#${range}`, text: attachment.text } };
      const fence = fenceFor(attachment.text);
      return {
        type: 'text',
        text: `${attachment.label}:\n${fence}${attachment.languageId ?? ''}\n${attachment.text}\n${fence}`,
      };
    }
    case 'image':
      return context.image ? { type: 'image', mimeType: attachment.mimeType, data: attachment.data } : undefined;
    case 'audio':
      return context.audio ? { type: 'audio', mimeType: attachment.mimeType, data: attachment.data } : undefined;
    case 'context':
      return contextBlock(attachment, context);
  }
}

/** Problems or a terminal's text: embedded where the agent takes it (under a howdah: URI naming it), else fenced text. */
function contextBlock(attachment: Extract<Attachment, { kind: 'context' }>, context: PromptContext): PromptBlock {
  if (context.embeddedContext) {
    return { type: 'resource', resource: { uri: `howdah://${attachment.source}/${encodeURIComponent(attachment.label)}`, mimeType: 'text/plain', text: attachment.text } };
  }
  const fence = fenceFor(attachment.text);
  return { type: 'text', text: `${attachment.label}:\n${fence}\n${attachment.text}\n${fence}` };
}

/** A fence longer than any backtick run inside the text, so the selection cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function baseName(label: string): string {
  return label.slice(label.lastIndexOf('/') + 1) || label;
}
