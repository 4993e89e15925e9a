import * as path from 'node:path';
import type * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import { KeyStore, secretNameOf } from '../auth/KeyStore';
import { ForecastMemo } from '../billing/ForecastMemo';
import { type Forecast } from '../billing/types';
import { type Settings } from '../config';
import { formatRequest, type Log } from '../log';
import { forLog } from '../notify/inert';
import { ProblemReporter } from '../notify/ProblemReporter';
import { RateLimitNotice } from '../notify/rateLimitWait';
import { logFailure, showReport, toReport } from '../notify/report';
import { shortReason } from '../notify/shortReason';
import { type OutsideChange, OutsideChangeDetector } from '../store/outsideChanges';
import { type Intervals, Scheduler, type Visibility } from '../store/Scheduler';
import { Store } from '../store/Store';
import { type StoreDeps } from '../store/types';
import { hostOf } from '../util/hosts';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { type AccountRecord, DEFAULT_ACCOUNT_ID } from './accountList';
import { ServerMarks } from './ServerMarks';
import { History } from './History';

/** What every account is built from: the same parts for the first account and the added ones. */
export interface AccountParts {
  readonly secrets: vscode.SecretStorage;
  /** Where per-order choices (an SSH address, a user name) are kept: never a secret. */
  readonly globalState: vscode.Memento;
  readonly createClient: StoreDeps['createClient'];
  readonly log: Log;
  /** The settings every account shares (request limits, refresh and watch intervals). */
  readonly settings: () => Settings;
  /** Whether there are several accounts now: then log lines and messages name the account. */
  readonly several: () => boolean;
  /** Where the accounts' histories are kept; none, none kept. */
  readonly historyDir?: string;
}

/**
 * One hosting account, whole: its record (name, API address, website), its key store, its store, its one scheduler,
 * and what tells the user about it (problem notices, the rate-limit wait, request log lines). Every account is built
 * by this class, the first one (`default`: the `hostingAccount.baseUrl` setting and the secret it always used)
 * included, so none has what another lacks.
 */
export class Account extends Disposable {
  readonly keys: KeyStore;
  readonly store: Store;
  readonly scheduler: Scheduler;
  /** Per-order choices, scoped to this account: the same order id may exist in two accounts. */
  readonly choices: vscode.Memento;
  /** Protected, pinned and labelled servers, synced with the user's other machines. */
  readonly marks: ServerMarks;
  readonly log: Log;
  private current: AccountRecord;
  private readonly forecasts = new ForecastMemo();
  readonly history: History;
  private readonly onDidSeeChangesEmitter = new Emitter<readonly OutsideChange[]>();
  /** Changes of its orders that no action of this window explains, as a read showed them. */
  readonly onDidSeeChanges = this.onDidSeeChangesEmitter.event;
  private readonly onDidDisposeEmitter = new Emitter<void>();
  /** The account was removed (or the extension is shutting down): what shows it closes. */
  readonly onDidDispose = this.onDidDisposeEmitter.event;

  constructor(
    record: AccountRecord,
    private readonly parts: AccountParts,
  ) {
    super();
    this.register({
      dispose: () => {
        this.onDidDisposeEmitter.fire();
        this.onDidDisposeEmitter.dispose();
        this.onDidSeeChangesEmitter.dispose();
      },
    });
    this.current = record;
    this.log = parts.log.scoped(record.id === DEFAULT_ACCOUNT_ID ? 'store' : `store:${record.id}`);
    this.keys = this.register(new KeyStore(parts.secrets, secretNameOf(record.id)));
    this.store = this.register(
      new Store({
        createClient: parts.createClient,
        getKey: () => this.keys.get(),
        settings: () => ({
          baseUrl: this.current.baseUrl,
          requestsPerMinute: parts.settings().maxRequestsPerMinute,
          requestTimeoutMs: parts.settings().requestTimeoutMs,
          fieldMap: this.current.fieldMap,
        }),
        log: this.log,
      }),
    );
    const settings = parts.settings();
    this.scheduler = this.register(
      new Scheduler(this.store, {
        refreshSeconds: settings.refreshIntervalSeconds,
        watchMinutes: settings.watchIntervalMinutes,
      }),
    );
    this.choices =
      record.id === DEFAULT_ACCOUNT_ID ? parts.globalState : scoped(parts.globalState, `account/${record.id}/`);
    this.marks = this.register(new ServerMarks(parts.globalState, record.id));
    const httpLog = parts.log.scoped('http');
    const notice = new RateLimitNotice(
      () => this.store.cancelUserWaits(),
      () => this.shownName(),
    );
    this.register(new ProblemReporter(this.reporting(), parts.log.scoped('notify')));
    this.register(
      this.store.onDidRequest((entry) => {
        const line = `${this.logPrefix()}${formatRequest(entry)}`;
        if (entry.error) httpLog.warn(line);
        else httpLog.info(line);
      }),
    );
    // A wait long enough to notice is shown, with Cancel.
    this.register(this.store.onDidWaitForLimit(({ until }) => notice.wait(until)));
    this.register(this.keys.onDidChange(() => void this.keyChanged()));
    const file = parts.historyDir && path.join(parts.historyDir, `${encodeURIComponent(record.id)}.jsonl`);
    this.history = new History(
      file,
      () => this.store.clock.now(),
      (error) => logFailure(this.log, 'the history', error),
    );
    this.journal();
  }

  /** What the store reports of actions and reads goes to the history; nothing is requested for it. */
  private journal(): void {
    const { store, history } = this;
    const now = (): number => store.clock.now();
    const detector = new OutsideChangeDetector(store, now);
    const check = (): void => {
      const changes = detector.check();
      if (!changes.length) return;
      history.append(changes.map(({ label, ...change }) => ({ ...change, name: label })));
      this.onDidSeeChangesEmitter.fire(changes);
    };
    this.register(store.onDidChangeOrders(check));
    this.register(store.onDidChangeState(check));
    this.register(store.onDidChangeData((kind) => kind === 'orders' && check()));
    this.register(
      store.onDidSend(({ label, error, ...sent }) =>
        history.append([{ ...sent, at: now(), kind: 'sent', name: label, error: error && shortReason(error) }]),
      ),
    );
    this.register(
      store.onDidSettle(({ order, action, source, ms }) =>
        history.append([
          { at: now(), id: order.id, kind: 'settled', name: order.label, action, source, ms, to: order.state },
        ]),
      ),
    );
  }

  get id(): string {
    return this.current.id;
  }

  get record(): AccountRecord {
    return this.current;
  }

  /** What the user calls the account: its label, else its provider's host. */
  get name(): string {
    return this.current.label || hostOf(this.current.baseUrl);
  }

  /** The name, only when several accounts could be meant (one account needs no name in a message). */
  shownName(): string | undefined {
    return this.parts.several() ? this.name : undefined;
  }

  get baseUrl(): string {
    return this.current.baseUrl;
  }

  /** The settings this account goes by (every account shares them; its address and website are its own). */
  get settings(): Settings {
    return this.parts.settings();
  }

  /** The provider's website: the account's own, or its API's address; held to the base URL's rules. */
  get websiteUrl(): string | undefined {
    try {
      return parseBaseUrl(this.current.websiteUrl || this.current.baseUrl).href;
    } catch {
      return undefined;
    }
  }

  /** The page where the account holder makes API keys (the spec's `/client/api-keys`), on this account's website. */
  get apiKeysPageUrl(): string | undefined {
    const site = this.websiteUrl;
    return site && `${site}/client/api-keys`;
  }

  /**
   * What the balance covers: the renewals of the next 90 days from what the store holds now (no request), made once
   * per change of the balance, orders or invoices, however many views ask.
   */
  forecast(now = Date.now()): Forecast {
    const { balance, orders, invoices } = this.store;
    const inputs = { balance: balance.value, orders: orders.all, invoices: invoices.value };
    return this.forecasts.get(inputs, now, this.settings.renewalWarningDays);
  }

  /**
   * A rename keeps everything; another address starts the store over (nothing the old one said stays), and so does
   * another field map (an id read another way may name another server), which then reads everything again.
   */
  update(record: AccountRecord): void {
    const moved = record.baseUrl !== this.current.baseUrl;
    const remapped = JSON.stringify(record.fieldMap) !== JSON.stringify(this.current.fieldMap);
    this.current = record;
    if (moved) this.store.settingsChanged();
    else if (remapped) void this.store.startOver();
  }

  setVisibility(visibility: Partial<Visibility>): void {
    this.scheduler.setVisibility(visibility);
  }

  setIntervals(intervals: Partial<Intervals>): void {
    this.scheduler.setIntervals(intervals);
  }

  /**
   * Reads the stored key: at start, and whenever the key store reports a change (here, in another window, through the
   * Accounts menu). A secret storage failure is told, not taken for "no key".
   */
  async keyChanged(): Promise<void> {
    try {
      this.parts.log.setSecret(await this.keys.get());
      await this.store.keyChanged();
    } catch (error) {
      logFailure(this.log, 'reading the API key', error);
      void showReport(toReport(error, this.baseUrl), { account: this, name: this.shownName() });
    }
  }

  private logPrefix(): string {
    const name = this.shownName();
    return name ? `[${forLog(name, 60)}] ` : '';
  }

  private reporting(): ConstructorParameters<typeof ProblemReporter>[0] {
    return {
      store: this.store,
      baseUrl: () => this.baseUrl,
      shownName: () => this.shownName(),
      commandArg: this,
    };
  }
}

function scoped(memento: vscode.Memento, prefix: string): vscode.Memento {
  return {
    keys: () =>
      memento
        .keys()
        .filter((key) => key.startsWith(prefix))
        .map((key) => key.slice(prefix.length)),
    get: <T>(key: string, fallback?: T) => memento.get<T>(prefix + key) ?? fallback,
    update: (key: string, value: unknown) => memento.update(prefix + key, value),
  };
}
