import * as path from 'node:path';
import type * as vscode from 'vscode';
import { type Settings, readSettings } from '../config';
import { type FieldMap } from '../api/normalise/fieldMap';
import { type Log } from '../log';
import { type Settled } from '../store/orders/OrderActions';
import { type OutsideChange } from '../store/outsideChanges';
import { type Visibility } from '../store/Scheduler';
import { type DataKind, type OrdersChange } from '../store/types';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import { Account } from './Account';
import {
  addAccount,
  type AccountRecord,
  allAccounts,
  DEFAULT_ACCOUNT_ID,
  editAccountAddress,
  nameKey,
  removeAccount,
  renameAccount,
  setFieldMap,
} from './accountList';
import { AccountRegistry } from './AccountRegistry';
import { ApiClients } from './ApiClients';

export interface AccountEvent<T> {
  readonly account: Account;
  readonly value: T;
}

export interface AccountModelOptions {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly userAgent: string;
}

export class AccountModel extends Disposable {
  readonly registry: AccountRegistry;
  private readonly clients: ApiClients;
  private list: Account[] = [];
  private settings: Settings;
  private visibility: Visibility = { ordersVisible: false, invoicesVisible: false, focused: true };

  private readonly onDidChangeEmitter = this.register(new Emitter<void>());
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidChangeStateEmitter = this.register(new Emitter<Account>());
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  private readonly onDidChangeDataEmitter = this.register(new Emitter<AccountEvent<DataKind>>());
  readonly onDidChangeData = this.onDidChangeDataEmitter.event;
  private readonly onDidChangeOrdersEmitter = this.register(new Emitter<AccountEvent<OrdersChange>>());
  readonly onDidChangeOrders = this.onDidChangeOrdersEmitter.event;
  private readonly onDidSettleEmitter = this.register(new Emitter<AccountEvent<Settled>>());
  readonly onDidSettle = this.onDidSettleEmitter.event;
  private readonly onDidChangeMarksEmitter = this.register(new Emitter<Account>());
  readonly onDidChangeMarks = this.onDidChangeMarksEmitter.event;
  private readonly onDidSeeChangesEmitter = this.register(new Emitter<AccountEvent<readonly OutsideChange[]>>());
  readonly onDidSeeChanges = this.onDidSeeChangesEmitter.event;
  private readonly onDidRequestEmitter = this.register(new Emitter<Account>());
  readonly onDidRequest = this.onDidRequestEmitter.event;

  constructor(private readonly options: AccountModelOptions) {
    super();
    this.settings = readSettings();
    this.clients = this.register(new ApiClients(options.log, options.userAgent, options.context.globalState));
    this.registry = this.register(new AccountRegistry(options.context.globalState, options.context.secrets));
    this.register(this.registry.onDidChange(() => this.sync()));
    this.register({ dispose: () => this.list.splice(0).forEach((account) => account.dispose()) });
    this.sync();
  }

  get accounts(): readonly Account[] {
    return this.list;
  }

  /** Always there (with no address yet, it says so). */
  get first(): Account {
    const first = this.list[0];
    if (!first) throw new Error('the first account is missing');
    return first;
  }

  get several(): boolean {
    return this.list.length > 1;
  }

  get(id: string): Account | undefined {
    return this.list.find((account) => account.id === id);
  }

  get records(): AccountRecord[] {
    return allAccounts(this.registry.stored, this.settings);
  }

  /** Undefined for an account removed meanwhile: nothing acts there. */
  accountOf(arg: unknown): Account | undefined {
    const id = accountIdIn(arg);
    if (id !== undefined) return this.get(id);
    const account = accountIn(arg);
    return account && this.list.includes(account) ? account : undefined;
  }

  /** Live or removed: a command given one never asks which. */
  namesAccount(arg: unknown): boolean {
    return accountIn(arg) !== undefined || accountIdIn(arg) !== undefined;
  }

  setVisibility(change: Partial<Visibility>): void {
    this.visibility = { ...this.visibility, ...change };
    for (const account of this.list) account.scheduler.setVisibility(change);
  }

  settingsChanged(event: vscode.ConfigurationChangeEvent): void {
    const network = this.clients.networkChanged(event);
    if (!network && !event.affectsConfiguration('hostingAccount')) return;
    this.settings = readSettings();
    const client = network || ['requestTimeout', 'maxRequestsPerMinute'].some((name) => affected(event, name));
    for (const account of this.list) {
      if (client) account.store.settingsChanged();
      if (affected(event, 'refreshInterval') || affected(event, 'watchInterval')) {
        account.scheduler.setIntervals({
          refreshSeconds: this.settings.refreshIntervalSeconds,
          watchMinutes: this.settings.watchIntervalMinutes,
        });
      }
    }
    if (affected(event, 'baseUrl') || affected(event, 'websiteUrl')) this.sync();
  }

  nameInUse(name: string, except?: string): boolean {
    const key = nameKey(name);
    return this.list.some((account) => account.id !== except && nameKey(account.name) === key);
  }

  async add(record: AccountRecord): Promise<Account> {
    if (this.nameInUse(record.label)) throw new RangeError('account name in use');
    await this.registry.update((stored) => addAccount(stored, record));
    const account = this.get(record.id);
    if (!account) throw new Error('the account just added is missing');
    return account;
  }

  /** Its store goes first. */
  async remove(id: string): Promise<void> {
    const account = this.get(id);
    if (!account || id === DEFAULT_ACCOUNT_ID) return;
    await this.registry.update((stored) => removeAccount(stored, id));
    await account.keys.delete();
    await account.history.remove();
  }

  async rename(id: string, label: string): Promise<void> {
    if (this.nameInUse(label, id)) throw new RangeError('account name in use');
    await this.registry.update((stored) => renameAccount(stored, id, label));
  }

  async setAddress(id: string, address: { baseUrl: string; websiteUrl?: string }): Promise<void> {
    await this.registry.update((stored) => editAccountAddress(stored, id, address));
  }

  async setFieldMap(id: string, fieldMap: FieldMap | undefined): Promise<void> {
    await this.registry.update((stored) => setFieldMap(stored, id, fieldMap));
  }

  /** The Accounts menu's Sign In waits for this rather than for the change event. */
  async keysChanged(): Promise<void> {
    await Promise.all(this.list.map((account) => account.keyChanged()));
  }

  private sync(): void {
    const records = this.records;
    const before = this.list;
    let changed = records.length !== before.length;
    const next = records.map((record) => {
      const existing = before.find((account) => account.id === record.id);
      if (existing && sameRecord(existing.record, record)) return existing;
      changed = true;
      if (!existing) return this.build(record);
      existing.update(record);
      return existing;
    });
    this.list = next;
    // Removed here, in another window or by Settings Sync: its journal goes too.
    for (const account of before.filter((account) => !next.includes(account))) {
      account.dispose();
      void account.history.remove();
    }
    if (changed) this.onDidChangeEmitter.fire();
  }

  private build(record: AccountRecord): Account {
    const storage = this.options.context.globalStorageUri;
    const account = new Account(record, {
      secrets: this.options.context.secrets,
      globalState: this.options.context.globalState,
      createClient: this.clients.create,
      log: this.options.log,
      settings: () => this.settings,
      several: () => this.list.length > 1,
      historyDir: storage.scheme === 'file' ? path.join(storage.fsPath, 'history') : undefined,
    });
    const { store } = account;
    store.onDidChangeState(() => this.onDidChangeStateEmitter.fire(account));
    store.onDidChangeData((value) => this.onDidChangeDataEmitter.fire({ account, value }));
    store.onDidChangeOrders((value) => this.onDidChangeOrdersEmitter.fire({ account, value }));
    store.onDidSettle((value) => this.onDidSettleEmitter.fire({ account, value }));
    account.onDidSeeChanges((value) => this.onDidSeeChangesEmitter.fire({ account, value }));
    store.onDidRequest(() => this.onDidRequestEmitter.fire(account));
    account.marks.onDidChange(() => this.onDidChangeMarksEmitter.fire(account));
    account.scheduler.setVisibility(this.visibility);
    void account.keyChanged();
    return account;
  }
}

function accountIn(arg: unknown): Account | undefined {
  if (arg instanceof Account) return arg;
  if (typeof arg !== 'object' || arg === null || !('account' in arg)) return undefined;
  const { account } = arg;
  return account instanceof Account ? account : undefined;
}

// A command link's argument: JSON, so it names the account by its id.
function accountIdIn(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null || !('accountId' in arg)) return undefined;
  return typeof arg.accountId === 'string' ? arg.accountId : undefined;
}

function sameRecord(a: AccountRecord, b: AccountRecord): boolean {
  return (
    a.label === b.label &&
    a.baseUrl === b.baseUrl &&
    a.websiteUrl === b.websiteUrl &&
    JSON.stringify(a.fieldMap) === JSON.stringify(b.fieldMap)
  );
}

function affected(event: vscode.ConfigurationChangeEvent, name: string): boolean {
  return event.affectsConfiguration(`hostingAccount.${name}`);
}
