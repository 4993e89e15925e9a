/**
 * A minimal stand-in for the `vscode` module, for benchmarks that load the bundle in plain Node: activation time and
 * building the tree's items for 10,000 orders. It only has to be cheap and shaped right; it checks nothing. (Tests
 * never use it: they run in a real VS Code.)
 */
import Module from 'node:module';

type Listener = (value: unknown) => unknown;

class EventEmitter {
  private listeners: Listener[] = [];
  event = (listener: Listener): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: unknown): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

const noop = (): void => undefined;
const disposable = { dispose: noop };
const event = (): typeof disposable => disposable;

class TreeItem {
  id?: string;
  description?: string;
  contextValue?: string;
  iconPath?: unknown;
  tooltip?: unknown;
  accessibilityInformation?: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState?: number,
  ) {}
}

/** Settings the stand-in's configuration answers with (user scope), by full name: `hostingAccount.baseUrl`. */
export const standInSettings: Record<string, unknown> = {};

export const standIn = {
  version: '1.139.1',
  EventEmitter,
  TreeItem,
  ThemeIcon: class {
    constructor(
      readonly id: string,
      readonly color?: unknown,
    ) {}
  },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  MarkdownString: class {
    isTrusted = false;
    supportHtml = false;
    constructor(
      readonly value = '',
      readonly supportThemeIcons = false,
    ) {}
  },
  Disposable: class {
    static from(...items: Array<{ dispose(): void }>): typeof disposable {
      return { dispose: () => items.forEach((i) => i.dispose()) };
    }
  },
  CancellationError: class extends Error {},
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  l10n: {
    t: (message: string, ...args: unknown[]): string =>
      message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])),
  },
  env: { language: 'en', clipboard: { writeText: () => Promise.resolve() }, openExternal: () => Promise.resolve(true) },
  Uri: { parse: (value: string) => ({ toString: () => value }), from: (parts: unknown) => parts },
  commands: { registerCommand: () => disposable, executeCommand: () => Promise.resolve(undefined) },
  workspace: {
    getConfiguration: (section: string) => ({
      get: <T>(name: string, fallback?: T) => (standInSettings[`${section}.${name}`] as T | undefined) ?? fallback,
      inspect: (name: string) =>
        `${section}.${name}` in standInSettings ? { globalValue: standInSettings[`${section}.${name}`] } : undefined,
    }),
    onDidChangeConfiguration: event,
    registerTextDocumentContentProvider: () => disposable,
    workspaceFolders: undefined,
    isTrusted: true,
    getWorkspaceFolder: () => undefined,
    onDidChangeWorkspaceFolders: event,
    onDidGrantWorkspaceTrust: event,
    onDidCloseTextDocument: event,
    textDocuments: [],
  },
  languages: { registerCodeLensProvider: () => disposable },
  tasks: { registerTaskProvider: () => disposable },
  authentication: { registerAuthenticationProvider: () => disposable },
  window: {
    state: { focused: true },
    onDidChangeWindowState: event,
    activeTextEditor: undefined,
    onDidChangeActiveTextEditor: event,
    onDidCloseTerminal: event,
    createOutputChannel: () => ({
      trace: noop,
      debug: noop,
      info: noop,
      warn: noop,
      error: noop,
      show: noop,
      dispose: noop,
    }),
    createTreeView: () => ({
      visible: false,
      message: undefined,
      description: undefined,
      badge: undefined,
      selection: [],
      onDidChangeVisibility: event,
      onDidChangeSelection: event,
      reveal: () => Promise.resolve(),
      dispose: noop,
    }),
    createStatusBarItem: () => ({ show: noop, hide: noop, dispose: noop }),
    setStatusBarMessage: () => disposable,
    showInformationMessage: () => Promise.resolve(undefined),
    showWarningMessage: () => Promise.resolve(undefined),
    showErrorMessage: () => Promise.resolve(undefined),
    withProgress: (_options: unknown, task: () => unknown) => Promise.resolve(task()),
  },
};

/** Makes `require('vscode')` return the stand-in, for this process. */
export function installStandIn(): void {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? standIn : original.call(this, request, ...rest);
  };
}

/** An ExtensionContext with what `activate` touches; `secrets` are what its secret storage holds. */
export function standInContext(secrets: Record<string, string> = {}): unknown {
  return {
    subscriptions: [] as unknown[],
    secrets: {
      get: (key: string) => Promise.resolve(secrets[key]),
      store: () => Promise.resolve(),
      delete: () => Promise.resolve(),
      onDidChange: event,
    },
    // An empty memento: no accounts added, no filter chosen.
    globalState: {
      get: <T>(_key: string, fallback?: T) => fallback,
      update: () => Promise.resolve(),
      keys: () => [],
      setKeysForSync: () => undefined,
    },
    // No folder bound.
    workspaceState: {
      get: <T>(_key: string, fallback?: T) => fallback,
      update: () => Promise.resolve(),
      keys: () => [],
    },
    extension: { packageJSON: { version: '0.0.0' } },
    extensionMode: 1,
    logUri: { fsPath: '' },
    // Not a file: no history is written while measuring.
    globalStorageUri: { scheme: 'memory', fsPath: '' },
  };
}
