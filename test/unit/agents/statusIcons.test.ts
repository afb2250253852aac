import { strict as assert } from 'node:assert';
import { ACTIVITY_ICONS, type SessionActivity } from '../../../src/agents/statusIcons';

describe('status bar icons', () => {
  it('spin only while an agent starts: nothing animates for as long as a turn streams or waits', () => {
    const spinning = (Object.keys(ACTIVITY_ICONS) as SessionActivity[]).filter((activity) => ACTIVITY_ICONS[activity].includes('~spin'));
    assert.deepEqual(spinning, ['starting']);
  });

  it('are one codicon each, so the agent’s name follows the icon', () => {
    for (const icon of Object.values(ACTIVITY_ICONS)) assert.match(icon, /^\$\([a-z-]+(~spin)?\)$/);
  });
});
