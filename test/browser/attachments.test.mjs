// Pasting pictures and sounds into the prompt: each becomes an attachment chip only when the agent takes it
// (`capabilities.image` / `capabilities.audio`), else the hint says why; the chip names the file; Send posts it.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { snapshot } from './support/fixtures.mjs';

/** Pastes one file of `type` into the prompt box, as the clipboard would hand it over. */
async function pasteFile(page, name, type, bytes) {
  await page.getByRole('textbox', { name: 'Prompt' }).focus();
  await page.evaluate(
    ({ name, type, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type }));
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { name, type, bytes },
  );
}

const chips = (page) => page.locator('.attachment-chips').getByRole('listitem');

describe('chat webview: pasted sounds and pictures', function () {
  const chat = chatPagePerTest();

  it('a pasted sound is an audio attachment for an agent that takes audio, and Send posts it', async function () {
    await send(chat.page, snapshot({ head: { capabilities: { image: false, audio: true, embeddedContext: false } } }));
    await pasteFile(chat.page, 'memo.wav', 'audio/wav', [82, 73, 70, 70]);
    await chips(chat.page).first().waitFor();
    assert.deepEqual((await chips(chat.page).allInnerTexts()).map((t) => t.trim()), ['memo.wav']);
    await chat.page.getByRole('textbox', { name: 'Prompt' }).fill('what is this?');
    await chat.page.keyboard.press('Enter');
    const [sent] = await posted(chat.page, 'send');
    assert.deepEqual(sent.attachments, [{ kind: 'audio', mimeType: 'audio/wav', data: 'UklGRg==', label: 'memo.wav' }]);
  });

  it('an agent without audio gets no chip, and the hint says it does not accept audio', async function () {
    await send(chat.page, snapshot({ head: { capabilities: { image: true, audio: false, embeddedContext: false } } }));
    await pasteFile(chat.page, 'memo.wav', 'audio/wav', [82, 73, 70, 70]);
    await chat.page.getByText('This agent does not accept audio.').waitFor();
    assert.equal(await chips(chat.page).count(), 0);
  });
});
