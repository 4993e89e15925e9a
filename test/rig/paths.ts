import * as path from 'node:path';

/** The project root: this file runs from `out/test/rig/`. */
export const projectRoot = path.resolve(__dirname, '..', '..', '..');

/** The git-ignored cache the rig installs into and runs from (the ecosystem's habit). */
export const cacheDir = path.join(projectRoot, '.vscode-test');

/** Per-run scratch folders live here and are deleted when the run ends. */
export const runsDir = path.join(cacheDir, 'runs');

/** The packaged extension produced by `npm run package`; HOSTING_ACCOUNT_VSIX tests another one (a release's). */
export const vsixPath = path.resolve(projectRoot, process.env.HOSTING_ACCOUNT_VSIX ?? 'hosting-account.vsix');

export const extensionId = 'hosting-tools.hosting-account';
