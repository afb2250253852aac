/** The walkthrough's id in package.json (`contributes.walkthroughs`), as `workbench.action.openWalkthrough` names it. */
export const WALKTHROUGH_ID = 'howdah.howdah#firstSteps';

/** The steps that complete by context key (`onContext:howdah.walkthrough.<step>` in the manifest). */
export const WALKTHROUGH_STEPS = ['agentStarted', 'changeToReview', 'hunkDecided', 'checkpointRestored'] as const;
export type WalkthroughStep = (typeof WALKTHROUGH_STEPS)[number];

export const isWalkthroughStep = (s: string): s is WalkthroughStep => (WALKTHROUGH_STEPS as readonly string[]).includes(s);

/**
 * Whether to open the walkthrough on this activation: once, unless VS Code is told not to open walkthroughs on
 * install (`workbench.welcomePage.walkthroughs.openOnInstall`), and never in an extension test run.
 */
export function opensOnThisActivation(alreadyOpened: boolean, openOnInstall: boolean | undefined, testRun: boolean): boolean {
  return !alreadyOpened && openOnInstall !== false && !testRun;
}
