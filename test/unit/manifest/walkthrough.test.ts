import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { opensOnThisActivation, WALKTHROUGH_ID, WALKTHROUGH_STEPS } from '../../../src/walkthrough/walkthroughSteps';
import { repoRoot } from '../support/fakeAgent';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; svg?: string };
  completionEvents?: string[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const walkthrough = (manifest.contributes.walkthroughs as { id: string; steps: Step[] }[]).find((w) => `${manifest.publisher}.${manifest.name}#${w.id}` === WALKTHROUGH_ID);

describe('the walkthrough in the manifest', () => {
  it('is the one the extension opens, with the five steps in order', () => {
    assert.ok(walkthrough, `no walkthrough ${WALKTHROUGH_ID}`);
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['chooseAgent', 'signIn', 'askForChange', 'reviewHunks', 'undoCheckpoint']);
  });

  it('every step completes by an event the extension really causes, and shows local Markdown (nothing fetched, no video)', () => {
    const commands = new Set((manifest.contributes.commands as { command: string }[]).map((c) => c.command));
    for (const step of walkthrough!.steps) {
      assert.ok(step.completionEvents?.length, `${step.id} has completion events`);
      for (const event of step.completionEvents!) {
        const [kind, what] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
        if (kind === 'onContext') assert.ok((WALKTHROUGH_STEPS as readonly string[]).includes(what.replace(/^howdah\.walkthrough\./, '')), `${step.id}: ${what} is a key the extension sets`);
        else if (kind === 'onCommand') assert.ok(commands.has(what), `${step.id}: ${what}`);
        else if (kind === 'onSettingChanged') assert.ok(manifest.contributes.configuration.properties[what], `${step.id}: ${what}`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
      assert.deepEqual(Object.keys(step.media), ['markdown'], `${step.id}: Markdown media only`);
      const file = path.join(repoRoot, step.media.markdown!);
      assert.ok(fs.existsSync(file), `${step.media.markdown} exists`);
      assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /https?:\/\/|<img|<video|!\[/, `${step.media.markdown} fetches nothing`);
      for (const link of step.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(link[1]) || link[1] === 'howdah.chat.focus', `${step.id}: ${link[1]}`);
    }
    const keys = new Set(walkthrough!.steps.flatMap((s) => s.completionEvents!).filter((e) => e.startsWith('onContext:')).map((e) => e.slice('onContext:howdah.walkthrough.'.length)));
    assert.deepEqual([...keys].sort(), [...WALKTHROUGH_STEPS].sort(), 'every key the extension sets completes a step');
  });

  it('is in the chat view’s overflow menu, and the .vsix takes its media', () => {
    const menu = (manifest.contributes.menus['view/title'] as { command: string; when: string; group?: string }[]).find((m) => m.command === 'howdah.openWalkthrough');
    assert.equal(menu?.when, 'view == howdah.chat');
    assert.ok(menu?.group && !menu.group.startsWith('navigation'), 'in the … menu, not the title bar');
    assert.match(fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8'), /^!media\/\*\*$/m);
  });

  it('opens once after install, unless VS Code is told not to, and never in a test run', () => {
    assert.equal(opensOnThisActivation(false, undefined, false), true);
    assert.equal(opensOnThisActivation(false, true, false), true);
    assert.equal(opensOnThisActivation(true, true, false), false, 'only once');
    assert.equal(opensOnThisActivation(false, false, false), false, 'workbench.welcomePage.walkthroughs.openOnInstall: false');
    assert.equal(opensOnThisActivation(false, true, true), false);
  });
});
