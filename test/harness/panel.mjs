// The Howdah chat panel, by the accessible names the panel gives its controls: a textbox "Prompt",
// buttons "Send", "Stop", "New session", and one button per permission option named by the option.

export const promptBox = wv => wv.getByRole('textbox', { name: 'Prompt' });
/** The first button named `name` (the panel may show one in its header and one in its empty state). */
export const button = (wv, name) => wv.getByRole('button', { name, exact: true }).first();

/** Types `text` into the prompt box and presses Send. */
export async function sendPrompt(wv, text, timeout = 30000) {
  const box = promptBox(wv);
  await box.waitFor({ timeout });
  await box.fill(text);
  await button(wv, 'Send').click({ timeout });
}

/** Starts a new session with the default agent when the panel offers the button. */
export async function newSession(wv, timeout = 30000) {
  const b = button(wv, 'New session');
  await b.waitFor({ timeout });
  await b.click();
}

/** Waits until the permission option `name` is offered; returns its button. */
export async function permissionOption(wv, name, timeout = 60000) {
  const b = button(wv, name);
  await b.waitFor({ timeout });
  return b;
}
