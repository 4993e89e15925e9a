/**
 * What the product suites share: a mock API of their own, started inside the extension host so a test can read its
 * request log and switch its faults directly, with the extension pointed at it through the user settings.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type TestApi } from '../../src/extension';
import {
  DEMO_API_KEY,
  type MockApi,
  type MockApiOptions,
  type RecordedRequest,
  startMockApi,
} from '../mock-api/server';
import { activeExtension } from './env';

export const KEY = DEMO_API_KEY;

export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 8_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export class Harness {
  private constructor(
    public mock: MockApi,
    readonly api: TestApi,
    private readonly previousBaseUrl: string | undefined,
    private readonly options: MockApiOptions,
  ) {}

  static async start(options: MockApiOptions = {}): Promise<Harness> {
    const api = (await activeExtension()).exports as TestApi;
    assert.ok(api?.store, 'the extension hands its test API to tests');
    const mock = await startMockApi({ transitionMs: 300, ...options });
    const previous = vscode.workspace.getConfiguration('hostingAccount').inspect<string>('baseUrl')?.globalValue;
    const harness = new Harness(mock, api, previous, options);
    await api.keys.delete();
    await harness.setSetting('baseUrl', mock.url);
    await waitFor(() => api.store.state === 'noKey', 'the signed-out state');
    mock.clearLog();
    return harness;
  }

  get store(): TestApi['store'] {
    return this.api.store;
  }

  /** Requests to the API (not the mock's web pages), optionally of one route such as 'POST /api/v1/orders/:id/action'. */
  requests(route?: string): RecordedRequest[] {
    return this.mock.requests.filter(
      (r) => r.route !== 'unmatched' && r.rawPath.startsWith('/api/') && (!route || r.route === route),
    );
  }

  async setSetting(name: string, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration('hostingAccount').update(name, value, vscode.ConfigurationTarget.Global);
  }

  /** Stores the key as another window would, and waits until the data the views show has loaded. */
  async signIn(options: { orders?: boolean } = { orders: true }): Promise<void> {
    await this.api.keys.store(KEY);
    await waitFor(() => this.store.hasApiKey && this.store.state !== 'noKey', 'the key to be picked up');
    if (options.orders) {
      await vscode.commands.executeCommand('hostingAccount.orders.focus');
      await this.store.refresh(['orders'], 'user');
      await waitFor(() => this.store.state === 'ready' && this.store.orders.size > 0, 'orders to load');
    }
  }

  private keyCount = 0;

  /**
   * Signs in with a key of its own. The extension's limiter counts requests per key, as the server does, so a suite
   * that makes many requests gives each test a fresh key instead of waiting for the minute to pass.
   */
  async signInWithFreshKey(): Promise<string> {
    const key = `${KEY}-${process.pid}-${++this.keyCount}`;
    this.mock.setKeys([KEY, key]);
    this.extraKeys.push(key);
    // A new key resets the store, which then has a key and no data: the state passes through 'loading'.
    let reset = false;
    const subscription = this.store.onDidChangeState((state) => (reset ||= state === 'loading'));
    try {
      await this.api.keys.store(key);
      await waitFor(() => reset, 'the new key to be picked up');
    } finally {
      subscription.dispose();
    }
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
    await this.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => this.store.state === 'ready' && this.store.orders.size > 0, 'orders to load');
    this.mock.clearLog();
    return key;
  }

  private readonly extraKeys: string[] = [];

  /** The server goes down: connections are refused until `serverUp`. */
  async serverDown(): Promise<void> {
    await this.mock.close();
  }

  /** The server comes back on the same address, with fresh data. */
  async serverUp(): Promise<void> {
    this.mock = await startMockApi({
      transitionMs: 300,
      ...this.options,
      port: this.mock.port,
      keys: [KEY, ...this.extraKeys],
    });
  }

  /** Everything the extension wrote to its log so far. */
  async logText(): Promise<string> {
    const dir = this.api.logUri;
    // The log is written asynchronously; a short pause lets the last lines land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const entries = await vscode.workspace.fs.readDirectory(dir);
    const texts = await Promise.all(
      entries
        .filter(([name]) => name.endsWith('.log'))
        .map(async ([name]) =>
          new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, name))),
        ),
    );
    return texts.join('\n');
  }

  async dispose(): Promise<void> {
    await this.api.keys.delete();
    await waitFor(() => this.store.state === 'noKey', 'sign-out');
    await this.setSetting('baseUrl', this.previousBaseUrl);
    await this.mock.close();
  }
}

/** Replaces one prompt of `vscode.window` (input box, quick pick, message) for a test; call the result to restore. */
export function stubWindow<K extends keyof typeof vscode.window>(
  name: K,
  replacement: (...args: never[]) => unknown,
): () => void {
  const target = vscode.window as unknown as Record<string, unknown>;
  const original = target[name];
  target[name] = replacement;
  return () => {
    target[name] = original;
  };
}

/** Records the messages shown with `showErrorMessage`/`showWarningMessage`/`showInformationMessage`. */
export function captureMessages(answers: Partial<Record<'error' | 'warning' | 'info', string | undefined>> = {}): {
  readonly shown: Array<{ level: string; message: string; options: unknown[] }>;
  readonly restore: () => void;
} {
  const shown: Array<{ level: string; message: string; options: unknown[] }> = [];
  const restores = (['error', 'warning', 'info'] as const).map((level) => {
    const name =
      level === 'error' ? 'showErrorMessage' : level === 'warning' ? 'showWarningMessage' : 'showInformationMessage';
    return stubWindow(name, (message: string, ...options: unknown[]) => {
      shown.push({ level, message, options });
      return Promise.resolve(answers[level]);
    });
  });
  return { shown, restore: () => restores.forEach((restore) => restore()) };
}

export interface FakeInputBox {
  /** Options the extension set on the box. */
  readonly password: boolean;
  readonly ignoreFocusOut: boolean;
  /** Validation messages shown, in order. */
  readonly messages: string[];
  readonly hidden: boolean;
}

/**
 * Replaces `vscode.window.createInputBox` with a box that types each answer and presses Enter, waiting for the
 * extension to accept it (the box closes) or reject it (a validation message), then dismisses the box
 * (Escape) when the answers run out. `undefined` as an answer dismisses it at once.
 */
export function fakeInputBox(answers: Array<string | undefined>): { box: FakeInputBox; restore: () => void } {
  const accept = new vscode.EventEmitter<void>();
  const hide = new vscode.EventEmitter<void>();
  const change = new vscode.EventEmitter<string>();
  const state = {
    value: '',
    title: '',
    prompt: '',
    placeholder: '',
    password: false,
    ignoreFocusOut: false,
    busy: false,
    enabled: true,
    validationMessage: undefined as string | undefined,
    messages: [] as string[],
    hidden: false,
  };
  const box = Object.assign(state, {
    onDidAccept: accept.event,
    onDidHide: hide.event,
    onDidChangeValue: change.event,
    onDidTriggerButton: new vscode.EventEmitter<unknown>().event,
    buttons: [],
    show: () => void drive(),
    hide: () => {
      if (state.hidden) return;
      state.hidden = true;
      hide.fire();
    },
    dispose: () => undefined,
  });
  async function drive(): Promise<void> {
    for (const answer of answers) {
      if (answer === undefined || state.hidden) break;
      state.value = answer;
      change.fire(answer);
      accept.fire();
      // An answer the extension ignores (an empty one) leaves the box as it was: give it a moment to react.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await waitFor(() => state.hidden || !state.busy, 'the key check');
      if (state.hidden) return;
      if (state.validationMessage !== undefined) state.messages.push(state.validationMessage);
    }
    box.hide();
  }
  const restore = stubWindow('createInputBox', () => box);
  return { box: state, restore };
}

/** Replaces `vscode.env.openExternal` while `run` runs; returns what it was asked to open. */
export async function captureOpenExternal(
  run: () => Thenable<unknown> | Promise<unknown>,
): Promise<vscode.Uri | undefined> {
  let opened: vscode.Uri | undefined;
  const env = vscode.env as unknown as Record<string, unknown>;
  const original = env.openExternal;
  env.openExternal = (uri: vscode.Uri) => {
    opened = uri;
    return Promise.resolve(true);
  };
  try {
    await run();
  } finally {
    env.openExternal = original;
  }
  return opened;
}
