/**
 * What the suggestions of a folder's server read besides the workspace, set by the composition root. The extension's
 * own tests change them through the test API: another home folder (never the real `~/.ssh/config`), Restricted Mode
 * pretended, and suggestions on only in the suite that tests them.
 */
export interface FolderHooks {
  /** The home folder whose `.ssh/config` is read; undefined to read none. */
  home?: string;
  /** Whether suggestions are made at all. */
  suggest: boolean;
  /** Pretends the workspace is trusted (true) or in Restricted Mode (false); VS Code's answer when left out. */
  trusted?: boolean;
}
