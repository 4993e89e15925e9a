import type * as Commands from './index';

let commands: typeof Commands | undefined;

/**
 * Loads the commands bundle on first use. esbuild turns this `require('./index')` into `require('./commands.js')`
 * (see esbuild.js): prompts, pickers and error messages are not needed until the user does something.
 */
export function loadCommands(): typeof Commands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  commands ??= require('./index') as typeof Commands;
  return commands;
}
