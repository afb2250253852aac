/**
 * Earlier prompts, walked with ↑/↓ like a shell: the text being written is kept as a draft and comes back after the
 * newest entry. Pure: unit-tested in Node.
 */
export class PromptHistory {
  private readonly items: string[];
  private index: number;
  private draft = '';

  constructor(
    items: readonly string[] = [],
    private readonly max = 100,
  ) {
    this.items = items.slice(-max);
    this.index = this.items.length;
  }

  get entries(): readonly string[] {
    return this.items;
  }

  push(text: string): void {
    if (text.trim() !== '' && this.items[this.items.length - 1] !== text) this.items.push(text);
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
    this.reset();
  }

  /** The entry before the current one, or undefined at the oldest. `current` is the text in the box now. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.items.length) this.draft = current;
    return this.items[--this.index];
  }

  /** The entry after the current one, the draft after the newest, undefined when already at the draft. */
  next(): string | undefined {
    if (this.index >= this.items.length) return undefined;
    this.index++;
    return this.index === this.items.length ? this.draft : this.items[this.index];
  }

  reset(): void {
    this.index = this.items.length;
    this.draft = '';
  }
}
