import type { ElicitationRecord } from '../session/elicitationRecord';
import type { ElicitationView } from '../shared/elicitationProtocol';

/** An elicitation as the page shows it; `toolTitle`: the title of the tool call it names, when known. */
export function elicitationView(record: ElicitationRecord, toolTitle?: string): ElicitationView {
  return {
    key: record.key,
    mode: record.mode,
    message: record.message,
    ...(toolTitle !== undefined ? { toolTitle } : {}),
    ...(record.form ? { form: record.form } : {}),
    ...(record.url !== undefined ? { url: record.url } : {}),
    status: record.status,
    ...(record.answered ? { answered: record.answered.map((a) => ({ ...a })) } : {}),
    ...(record.endedBy ? { endedBy: record.endedBy } : {}),
  };
}
