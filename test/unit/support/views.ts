import type { HeaderView } from '../../../src/shared/protocol';

/** The header of a session whose agent is ready, with no sessions listed, options or capabilities: what most page tests start from. */
export const READY_HEADER: HeaderView = { status: 'ready', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };
