/**
 * What the product suites share. One mock API serves the whole integration run (every suite, every test):
 *
 * - `suiteMock()`: THE mock API of this run. The runner (runTests.ts) reserves its loopback address and writes it into
 *   the user settings before VS Code starts (`hostingAccount.baseUrl`), and passes it as HOSTING_ACCOUNT_TEST_API_URL;
 *   the server itself runs here, in the extension host, started on first use, so a test reads its request log and
 *   switches its faults directly. It stays up between suites and closes when the run ends (index.ts).
 * - `Harness.start(options)`: a suite's handle on it. It resets that same server for the suite (its seed, keys and
 *   transition time; no faults, an empty log, a fresh rate limit), signs the extension out and points it at the
 *   server. `h.mock` is the suite mock; `h.dispose()` signs out and puts the settings back, the server stays up.
 * - `extraMock(purpose, options)`: a second server, only where a test needs one on purpose (a second account, a
 *   decoy that must never be reached). The test closes it. Nothing else starts a mock in this suite.
 *
 * The extension's limiter counts requests per key and origin, and the suite mock keeps one origin for the whole run:
 * a suite that makes many requests signs in with `signInWithFreshKey()` (a key never used before in the run).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Account } from '../../src/accounts/Account';
import { type KeyStore } from '../../src/auth/KeyStore';
import { type TestApi } from '../../src/extension';
import { type Store } from '../../src/store/Store';
import { type InvoiceNode } from '../../src/views/invoices/InvoicesTree';
import { type OrderNode } from '../../src/views/orders/OrderNode';
import {
  DEMO_API_KEY,
  type MockApi,
  type MockApiOptions,
  type RecordedRequest,
  startMockApi,
} from '../mock-api/server';
import { activeExtension, testApi } from './env';

export const KEY = DEMO_API_KEY;

/** How a suite wants the suite mock: what can change on a running server without a new address. */
export type SuiteOptions = Pick<MockApiOptions, 'seed' | 'keys' | 'transitionMs'> & {
  /**
   * Keep the renewal warnings on (`hostingAccount.renewalWarningDays` at its default). Off otherwise: the seed's
   * balance does not cover a renewal 3 days away, and a suite about something else would see its notice, its mark and
   * its warning background.
   */
  readonly renewalWarnings?: boolean;
};

/** Actions take this long on the suite mock unless a suite says otherwise: long enough to see them under way. */
const SUITE_TRANSITION_MS = 300;

let suite: MockApi | undefined;
/** Fresh keys handed out in this run (see signInWithFreshKey). */
let freshKeys = 0;
let suiteOptions: SuiteOptions = {};

/** The one mock API of this run, at the address the runner reserved and wrote into the settings (see above). */
export async function suiteMock(): Promise<MockApi> {
  suite ??= await startSuiteMock(suiteOptions);
  return suite;
}

async function startSuiteMock(options: SuiteOptions, keys?: string[]): Promise<MockApi> {
  const port = Number(new URL(testApi().url).port);
  try {
    return await startMockApi({
      port,
      transitionMs: options.transitionMs ?? SUITE_TRANSITION_MS,
      seed: options.seed,
      keys: keys ?? options.keys ?? [KEY],
    });
  } catch (error) {
    throw new Error(
      `the suite mock API could not listen on ${testApi().url}, the port the runner reserved (run again): ${String(error)}`,
    );
  }
}

/** Closes the suite mock at the end of the run. */
export async function closeSuiteMock(): Promise<void> {
  const closing = suite?.close();
  suite = undefined;
  await closing;
}

/**
 * A mock API of its own, beside the suite mock, for a test that needs a second server on purpose. `purpose` names it
 * in failures (e.g. 'second account', 'decoy'); the caller closes it.
 */
export async function extraMock(purpose: string, options: MockApiOptions = {}): Promise<MockApi> {
  assert.ok(purpose.trim(), 'an extra mock API says what it is for');
  try {
    return await startMockApi({ transitionMs: SUITE_TRANSITION_MS, ...options });
  } catch (error) {
    throw new Error(`the extra mock API for the ${purpose} could not start: ${String(error)}`);
  }
}

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
    readonly api: TestApi,
    private readonly previousBaseUrl: string | undefined,
    /** The key `signIn` stores: the suite's own (see `start`). */
    readonly key: string,
  ) {}

  /** A suite's handle on the suite mock, reset for it (see the top of this file). */
  static async start(options: SuiteOptions = {}): Promise<Harness> {
    const api = (await activeExtension()).exports as TestApi;
    assert.ok(api?.model, 'the extension hands its test API to tests');
    suiteOptions = options;
    const mock = await suiteMock();
    mock.reset({ seed: options.seed ?? {} });
    // Each suite signs in with a key of its own: the extension's limiter rightly keeps counting a key's requests across
    // sign-outs (the server does), so suites sharing one key would inherit each other's minute.
    const key = `${KEY}-${process.pid}-${++freshKeys}`;
    mock.setKeys([...(options.keys ?? [KEY]), key]);
    mock.setTransitionMs(options.transitionMs ?? SUITE_TRANSITION_MS);
    const previous = vscode.workspace.getConfiguration('hostingAccount').inspect<string>('baseUrl')?.globalValue;
    const harness = new Harness(api, previous, key);
    await api.model.first.keys.delete();
    await harness.setSetting('renewalWarningDays', options.renewalWarnings === true ? undefined : 0);
    await harness.setSetting('baseUrl', mock.url);
    await waitFor(() => api.model.first.store.state === 'noKey', 'the signed-out state');
    mock.clearLog();
    return harness;
  }

  /** The suite mock (see the top of this file); after `serverDown`, the closed server until `serverUp`. */
  get mock(): MockApi {
    const mock = suite ?? this.downMock;
    assert.ok(mock, 'the suite mock has been started');
    return mock;
  }

  private downMock?: MockApi;

  /** The first account (`default`): the one a one-account user has. */
  get account(): Account {
    return this.api.model.first;
  }

  get store(): Store {
    return this.account.store;
  }

  get keys(): KeyStore {
    return this.account.keys;
  }

  /**
   * The order nodes the Orders view shows at its top level (one account). By shape: the extension runs from its
   * bundle, so its classes are not the ones these tests import.
   */
  async orderNodes(): Promise<OrderNode[]> {
    return (await this.api.orders.getChildren()).filter((node): node is OrderNode => 'order' in node);
  }

  /** The invoice nodes the Invoices view shows at its top level (one account), by shape as above. */
  invoiceNodes(): InvoiceNode[] {
    return this.api.invoices.getChildren().filter((node): node is InvoiceNode => 'invoice' in node);
  }

  /** Requests to the API (not the mock's web pages), optionally of one route such as 'POST /api/v1/orders/:id/action'. */
  requests(route?: string): RecordedRequest[] {
    return this.mock.requests.filter(
      (r) => r.route !== 'unmatched' && r.rawPath.startsWith('/api/') && (!route || r.route === route),
    );
  }

  /**
   * Waits until the reads a new key started are over, so a test that counts requests counts only its own: the first
   * refresh after a key reads every datum, and a test that awaited only the orders would see the rest arrive late.
   */
  async settled(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const kinds = ['orders', 'balance', 'account', 'invoices'] as const;
    const loading = () => kinds.filter((kind) => this.store.slot(kind).loading);
    try {
      await waitFor(() => loading().length === 0, 'the first reads to end');
    } catch (e) {
      const recent = this.mock.requests.slice(-8).map((r) => `${r.route} ${r.status} ${Date.now() - r.time}ms ago`);
      throw new Error(
        `${String(e)}; still loading: ${loading().join(', ')}; the mock's last requests: ${recent.join(' | ')}`,
      );
    }
  }

  async setSetting(name: string, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration('hostingAccount').update(name, value, vscode.ConfigurationTarget.Global);
  }

  /** Stores the key as another window would, and waits until the data the views show has loaded. */
  async signIn(options: { orders?: boolean } = { orders: true }): Promise<void> {
    await this.keys.store(this.key);
    await waitFor(() => this.store.hasApiKey && this.store.state !== 'noKey', 'the key to be picked up');
    if (options.orders) {
      await vscode.commands.executeCommand('hostingAccount.orders.focus');
      await this.store.refresh(['orders'], 'user');
      await waitFor(() => this.store.state === 'ready' && this.store.orders.size > 0, 'orders to load');
      await this.settled();
    }
  }

  /**
   * Signs in with a key of its own. The extension's limiter counts requests per key and origin, as the server does,
   * so a suite that makes many requests gives each test a fresh key instead of waiting for the minute to pass. The
   * suite mock keeps one origin for the whole run, so a key is never used twice in a run (the count is the run's).
   */
  async signInWithFreshKey(): Promise<string> {
    const key = `${KEY}-${process.pid}-${++freshKeys}`;
    this.mock.setKeys([KEY, this.key, key]);
    this.extraKeys.push(key);
    // A new key resets the store, which then has a key and no data: the state passes through 'loading'.
    let reset = false;
    const subscription = this.store.onDidChangeState((state) => (reset ||= state === 'loading'));
    try {
      await this.keys.store(key);
      await waitFor(() => reset, 'the new key to be picked up');
    } finally {
      subscription.dispose();
    }
    await vscode.commands.executeCommand('hostingAccount.orders.focus');
    await this.store.refresh(['orders', 'balance'], 'user');
    await waitFor(() => this.store.state === 'ready' && this.store.orders.size > 0, 'orders to load');
    await this.settled();
    this.mock.clearLog();
    return key;
  }

  private readonly extraKeys: string[] = [];

  /** The suite mock goes down: connections to its address are refused until `serverUp`. */
  async serverDown(): Promise<void> {
    this.downMock = suite;
    await closeSuiteMock();
  }

  /** The suite mock comes back on the same address, with fresh data (the suite's seed) and the keys it had. */
  async serverUp(): Promise<void> {
    suite = await startSuiteMock(suiteOptions, [KEY, this.key, ...(suiteOptions.keys ?? []), ...this.extraKeys]);
    this.downMock = undefined;
  }

  /** Everything the extension wrote to its log so far. */
  async logText(): Promise<string> {
    const dir = this.api.context.logUri;
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
    await this.keys.delete();
    await waitFor(() => this.store.state === 'noKey', 'sign-out');
    await this.setSetting('baseUrl', this.previousBaseUrl);
    await this.setSetting('renewalWarningDays', undefined);
    // The suite mock stays up for the next suite, which resets it (one a test left down starts again on first use).
    this.downMock = undefined;
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

/** An outside-change notice as shown: a notification whose buttons end with Show History. */
export interface Notice {
  readonly level: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly buttons: readonly string[];
  /** The user's click (`undefined`: closed); the notice is gone after it. */
  readonly answer: (button: string | undefined) => void;
  answered: boolean;
}

/**
 * Records the outside-change notices, each left open until the test clicks one of its buttons; the other messages
 * are recorded too and passed on to what showed them before.
 */
export function captureNotices(): {
  readonly shown: Notice[];
  readonly others: Array<{ level: string; message: string }>;
  readonly restore: () => void;
} {
  const shown: Notice[] = [];
  const others: Array<{ level: string; message: string }> = [];
  const restores = (['error', 'warning', 'info'] as const).map((level) => {
    const name =
      level === 'error' ? 'showErrorMessage' : level === 'warning' ? 'showWarningMessage' : 'showInformationMessage';
    const before = (vscode.window as unknown as Record<string, (...args: unknown[]) => Thenable<unknown>>)[name];
    return stubWindow(name, (message: string, ...options: unknown[]) => {
      if (options.at(-1) !== 'Show History') {
        others.push({ level, message });
        return before?.call(vscode.window, message, ...options);
      }
      return new Promise((resolve) => {
        const notice: Notice = {
          level,
          message,
          buttons: options.filter((option): option is string => typeof option === 'string'),
          answered: false,
          answer: (button) => {
            notice.answered = true;
            resolve(button);
          },
        };
        shown.push(notice);
      });
    });
  });
  return {
    shown,
    others,
    restore: () => {
      for (const notice of shown) if (!notice.answered) notice.answer(undefined);
      for (const restore of restores.reverse()) restore();
    },
  };
}

/** Clicks a notice's button. */
export function clickStep(notice: Notice, title: string): void {
  assert.ok(notice.buttons.includes(title), `the notice offers ${title}`);
  notice.answer(title);
}
