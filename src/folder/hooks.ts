/** Set by the composition root; the tests change them (another home, Restricted Mode pretended). */
export interface FolderHooks {
  /** Whose `.ssh/config` is read; none when undefined. */
  home?: string;
  suggest: boolean;
  /** VS Code's answer when undefined. */
  trusted?: boolean;
}
