import * as path from 'node:path';
import type * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import { parseJson } from '../api/json';
import { type Order, type OrderAction } from '../api/models';
import { type FieldMap, orderIdsOf } from '../api/normalise/fieldMap';
import { KeyStore, secretNameOf } from '../auth/KeyStore';
import { ForecastMemo } from '../billing/ForecastMemo';
import { type Forecast } from '../billing/types';
import { type Settings } from '../config';
import { formatRequest, type Log } from '../log';
import { forLog } from '../notify/inert';
import { ProblemReporter } from '../notify/ProblemReporter';
import { confirmByName } from '../notify/typedName';
import { RateLimitNotice } from '../notify/rateLimitWait';
import { logFailure, showReport, toReport } from '../notify/report';
import { shortReason } from '../notify/shortReason';
import { type OutsideChange } from '../store/outsideChanges';
import { Scheduler } from '../store/Scheduler';
import { Store } from '../store/Store';
import { Declined } from '../store/errors';
import { type ActionSource, type StoreDeps } from '../store/types';
import { hostOf } from '../util/hosts';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { type AccountRecord, DEFAULT_ACCOUNT_ID } from './accountList';
import { type IdPairs, ServerMarks, idPairs } from './ServerMarks';
import { History, journal } from './History';

export interface AccountParts {
  readonly secrets: vscode.SecretStorage;
  readonly globalState: vscode.Memento;
  readonly createClient: StoreDeps['createClient'];
  readonly log: Log;
  readonly settings: () => Settings;
  /** With several accounts, log lines and messages name the account. */
  readonly several: () => boolean;
  /** None: no history is kept. */
  readonly historyDir?: string;
}

export class Account extends Disposable {
  readonly keys: KeyStore;
  readonly store: Store;
  readonly scheduler: Scheduler;
  /** Per-order choices (never secret), scoped: the same order id may exist in two accounts. */
  readonly choices: vscode.Memento;
  readonly marks: ServerMarks;
  readonly log: Log;
  private current: AccountRecord;
  private readonly forecasts = new ForecastMemo();
  readonly history: History;
  private readonly onDidSeeChangesEmitter = new Emitter<readonly OutsideChange[]>();
  readonly onDidSeeChanges = this.onDidSeeChangesEmitter.event;
  private asking: Promise<unknown> = Promise.resolve();
  private readonly onDidDisposeEmitter = new Emitter<void>();
  /** Removed, or the extension shuts down: what shows it closes. */
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
        guard: (order, action, source) => this.guard(order, action, source),
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
    this.register(new RateLimitNotice(this));
    this.register(new ProblemReporter(this, parts.log.scoped('notify')));
    this.register(
      this.store.onDidRequest((entry) => {
        const line = `${this.logPrefix()}${formatRequest(entry)}`;
        if (entry.error) httpLog.warn(line);
        else httpLog.info(line);
      }),
    );
    this.register(this.keys.onDidChange(() => void this.keyChanged()));
    const file = parts.historyDir && path.join(parts.historyDir, `${encodeURIComponent(record.id)}.jsonl`);
    this.history = this.register(
      new History(
        file,
        () => this.store.clock.now(),
        (error) => logFailure(this.log, 'the history', error),
      ),
    );
    const seen = (changes: readonly OutsideChange[]): void => this.onDidSeeChangesEmitter.fire(changes);
    for (const part of journal(this.store, this.history, shortReason, seen)) this.register(part);
    const { store } = this;
    this.register(
      store.onDidChangeData((kind) => kind === 'orders' && void this.marks.seen(store.ordersInfo, store.clock.now())),
    );
  }

  get id(): string {
    return this.current.id;
  }

  get record(): AccountRecord {
    return this.current;
  }

  get name(): string {
    return this.current.label || hostOf(this.current.baseUrl);
  }

  shownName(): string | undefined {
    return this.parts.several() ? this.name : undefined;
  }

  get baseUrl(): string {
    return this.current.baseUrl;
  }

  get settings(): Settings {
    return this.parts.settings();
  }

  get websiteUrl(): string | undefined {
    try {
      return parseBaseUrl(this.current.websiteUrl || this.current.baseUrl).href;
    } catch {
      return undefined;
    }
  }

  get apiKeysPageUrl(): string | undefined {
    const site = this.websiteUrl;
    return site && `${site}/client/api-keys`;
  }

  /** Made once per change of the balance, orders or invoices, however many views ask; no request. */
  forecast(now = Date.now()): Forecast {
    const { balance, orders, invoices } = this.store;
    const inputs = { balance: balance.value, orders: orders.all, invoices: invoices.value };
    return this.forecasts.get(inputs, now, this.settings.renewalWarningDays);
  }

  // Another address or field map starts the store over (an id read another way may name another server).
  update(record: AccountRecord): void {
    const moved = record.baseUrl !== this.current.baseUrl;
    const remapped = JSON.stringify(record.fieldMap) !== JSON.stringify(this.current.fieldMap);
    this.current = record;
    if (moved) this.store.settingsChanged();
    else if (remapped) void this.store.startOver();
  }

  /** Reinstall, and Stop or Restart of a protected server: the action's own way asks for the typed name. */
  asksName(id: string, action: OrderAction): boolean {
    return action === 'reinstall' || (action !== 'start' && this.marks.isProtected(id));
  }

  // Every action passes here (the store's one way to send it), whoever sends it: one question at a time; the
  // assistant is never asked, but refused a protected server (Start too) and any Reinstall.
  private async guard(order: Order, action: OrderAction, source?: ActionSource): Promise<void> {
    if (source === 'assistant' && (action === 'reinstall' || this.marks.isProtected(order.id))) {
      throw new Declined(order.id);
    }
    if (!this.asksName(order.id, action)) return;
    const asked = this.asking.then(() => confirmByName(order, action));
    this.asking = asked.catch(() => false);
    if (!(await asked)) throw new Declined(order.id);
  }

  /** Where the marks go when `map` reads the ids: old id → new id, and the marked ids that cannot follow. */
  carryOver(map: FieldMap | undefined): { pairs: IdPairs; lost: string[] } {
    const [before, after] = [this.current.fieldMap?.pointers, map?.pointers];
    if (before?.id === after?.id && before?.orderList === after?.orderList) return { pairs: new Map(), lost: [] };
    const last = this.store.lastAnswer('orders');
    const answer = last?.parsed && !last.cut ? parseJson(last.text) : undefined;
    const pairs = idPairs(orderIdsOf(this.current.fieldMap), orderIdsOf(map), answer);
    return { pairs, lost: this.marks.lostBy(pairs) };
  }

  /** A secret storage failure is told, not taken for "no key". */
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
