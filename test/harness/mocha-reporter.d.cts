// Type of the shared reporter, for the TypeScript integration suite that bundles it.
import Mocha = require('mocha');

declare const HowdahReporter: typeof Mocha.reporters.Spec;
export = HowdahReporter;
