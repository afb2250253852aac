// `node test/harness/provision-cli.mjs`: provision the cache alone (what every tier does first).
import { provision } from './provision.mjs';
import { phase } from './timing.mjs';

const inst = await phase('provision', provision);
console.log(JSON.stringify(inst, null, 2));
