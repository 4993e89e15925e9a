import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { keepTold, noticesDue, type RenewalNotice, WARNING_STEPS } from '../billing/notices';
import { type Forecast } from '../billing/types';
import { forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { dayWords, moneyWords, subjectWords, warningDays } from '../notify/renewalWords';
import { inAccount, tell } from '../notify/show';
import { type ZoneOffset } from '../util/calendar';
import { Disposable } from '../util/lifecycle';

const TOLD_KEY = 'renewalNotices.told';
const FLOOD_KEY = 'renewalNotices.floodDay';
/** Any real account has far fewer renewals in its warning window. */
const MAX_TOLD = 2_000;
const MAX_NAMED = 3;

export interface RenewalNoticeOptions {
  readonly now?: () => number;
  readonly zone?: ZoneOffset;
}

function stepsFor(days: number): number[] {
  return days > 0 ? [days, ...WARNING_STEPS.filter((step) => step < days)] : [];
}

/** Each notice step told once: kept in the account's `globalState`, so no window and no restart tells it twice. */
export class RenewalNotices extends Disposable {
  private checked = new WeakMap<Account, Forecast>();

  constructor(
    private readonly model: AccountModel,
    private readonly options: RenewalNoticeOptions = {},
  ) {
    super();
    this.register(model.onDidChangeData(({ account, value }) => value !== 'account' && this.check(account)));
    this.register(model.onDidChangeState((account) => this.check(account)));
    this.register(model.onDidChange(() => this.checkAll()));
    this.checkAll();
  }

  settingsChanged(): void {
    this.checked = new WeakMap();
    this.checkAll();
  }

  checkAll(): void {
    for (const account of this.model.accounts) this.check(account);
  }

  check(account: Account): void {
    const days = warningDays(account.settings);
    const { store } = account;
    if (!days || this.disposed || store.state !== 'ready' || !store.balance.value) return;
    if (store.ordersInfo.updatedAt === undefined || !this.model.accountOf(account)) return;
    const now = this.options.now?.() ?? Date.now();
    const forecast = account.forecast(now);
    if (this.checked.get(account) === forecast) return;
    this.checked.set(account, forecast);
    const told = toldOf(account);
    const context = { account: account.id, now, zone: this.options.zone, steps: stepsFor(days) };
    const due = noticesDue(forecast, { ...context, told });
    if (!due.length) return;
    if (due.length > MAX_TOLD) {
      // Only thousands of uncovered renewals get here: one notification a day, no key kept.
      if (account.choices.get<string>(FLOOD_KEY) === forecast.today) return;
      void account.choices.update(FLOOD_KEY, forecast.today);
    } else {
      // Kept before it shows (it stays open until answered). Never forgotten while due: an invoice overdue for months
      // is told once.
      const current = noticesDue(forecast, { ...context, told: new Set() }).map((notice) => notice.key);
      const keys = [...new Set([...keepTold(told, forecast.today), ...current])].slice(-MAX_TOLD);
      void account.choices.update(TOLD_KEY, keys);
    }
    void this.tell(account, due, forecast);
  }

  private async tell(account: Account, due: readonly RenewalNotice[], forecast: Forecast): Promise<void> {
    const open = vscode.l10n.t('Open Forecast');
    const show = vscode.l10n.t('Show Invoice');
    const only = due.length === 1 ? due[0] : undefined;
    const invoice = only && invoiceOf(only);
    const message = only ? oneMessage(only, forecast) : groupMessage(due, forecast);
    const answer = await tell('warning', inAccount(account.shownName(), message), open, ...(invoice ? [show] : []));
    if (answer === open) await vscode.commands.executeCommand('hostingAccount.showForecast', account);
    else if (answer === show && invoice) {
      if (invoice.url) await vscode.env.openExternal(vscode.Uri.parse(invoice.url, true));
      else await vscode.commands.executeCommand('hostingAccount.invoices.focus');
    }
  }
}

function toldOf(account: Account): Set<string> {
  const stored = account.choices.get<unknown>(TOLD_KEY);
  const keys = Array.isArray(stored) ? stored.slice(0, MAX_TOLD) : [];
  return new Set(keys.filter((key): key is string => typeof key === 'string'));
}

function invoiceOf(notice: RenewalNotice): { readonly url?: string } | undefined {
  const { renewal } = notice;
  if (renewal.source.kind === 'invoice') return { url: renewal.source.url };
  return renewal.invoice;
}

function oneMessage({ renewal, daysAway }: RenewalNotice, forecast: Forecast): string {
  const { source } = renewal;
  const subject =
    source.kind === 'invoice'
      ? forMessage(source.number ?? `#${source.invoiceId}`, 60)
      : subjectWords(renewal, forMessage);
  const day = dayWords(renewal.day, forecast.today);
  const amount = moneyWords(renewal.amount ?? 0, renewal.currency);
  const short = moneyWords(renewal.shortBy ?? 0, forecast.currency);
  const later = [subject, day, daysAway, amount, short];
  const dated = [subject, day, amount, short];
  const today = [subject, amount, short];
  if (source.kind === 'invoice') {
    if (daysAway > 1) {
      return vscode.l10n.t(
        'Invoice {0} is due on {1}, in {2} days, for {3}, and your balance does not cover it: short by {4}.',
        ...later,
      );
    }
    if (daysAway === 1) {
      return vscode.l10n.t(
        'Invoice {0} is due tomorrow, {1}, for {2}, and your balance does not cover it: short by {3}.',
        ...dated,
      );
    }
    if (daysAway === 0) {
      return vscode.l10n.t(
        'Invoice {0} is due today for {1}, and your balance does not cover it: short by {2}.',
        ...today,
      );
    }
    return vscode.l10n.t(
      'Invoice {0} was due on {1} ({2}), and your balance does not cover it: short by {3}.',
      ...dated,
    );
  }
  if (daysAway > 1) {
    return vscode.l10n.t(
      '{0} renews on {1}, in {2} days, for {3}, and your balance does not cover it: short by {4}.',
      ...later,
    );
  }
  if (daysAway === 1) {
    return vscode.l10n.t(
      '{0} renews tomorrow, {1}, for {2}, and your balance does not cover it: short by {3}.',
      ...dated,
    );
  }
  if (daysAway === 0) {
    return vscode.l10n.t('{0} renews today for {1}, and your balance does not cover it: short by {2}.', ...today);
  }
  return vscode.l10n.t(
    '{0} was due to renew on {1} ({2}), and your balance does not cover it: short by {3}.',
    ...dated,
  );
}

function groupMessage(due: readonly RenewalNotice[], forecast: Forecast): string {
  const named = namedList(
    due
      .slice(0, MAX_NAMED)
      .map(({ renewal }) =>
        vscode.l10n.t('{0} on {1}', subjectWords(renewal, forMessage), dayWords(renewal.day, forecast.today)),
      ),
    due.length,
  );
  const last = due[due.length - 1];
  const short = moneyWords(last?.renewal.shortBy ?? 0, forecast.currency);
  return vscode.l10n.t(
    'Your balance does not cover {0} coming renewals: {1}. Short by {2} to pay them all.',
    due.length,
    named,
    short,
  );
}
