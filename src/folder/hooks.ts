export interface FolderHooks {
  home?: string;
  suggest: boolean;
  trusted?: boolean;
}
