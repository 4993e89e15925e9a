import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Forecast, type ForecastRenewal, type UnpaidInvoice } from '../billing/types';
import { forMarkdown } from '../notify/inert';
import {
  amountProblemWords,
  coverageSentence,
  dayWords,
  forecastCaveats,
  moneyWords,
  subjectWords,
} from '../notify/renewalWords';
import { documentUri, ReadOnlyDocument, removedText } from './ReadOnlyDocument';

export const FORECAST_SCHEME = 'hosting-account-forecast';

const MAX_RENEWAL_ROWS = 300;
const MAX_INVOICE_ROWS = 50;
const MAX_LINK = 2_000;

export function forecastUri(account: Account): vscode.Uri {
  const shown = account.shownName();
  const title = vscode.l10n.t('Renewal Forecast');
  return documentUri(FORECAST_SCHEME, account, shown ? `${title} – ${shown.slice(0, 60)}` : title, 'md');
}

/** Made from what the account's store holds (no request); an open document follows every change of it. */
export class ForecastDocument extends ReadOnlyDocument implements vscode.TextDocumentContentProvider {
  protected readonly scheme = FORECAST_SCHEME;
  // Redraws are decided on the text: it also says when the balance was read, which no forecast tells.
  private readonly shown = new WeakMap<Account, { readonly uri: vscode.Uri; readonly text: string }>();

  constructor(model: AccountModel) {
    super(model);
    this.register(model.onDidChangeData(({ account }) => this.changed(account)));
    this.register(model.onDidChangeState((account) => this.changed(account)));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const account = this.accountOf(uri);
    if (!account) return removedText();
    const text = forecastMarkdown(account, account.forecast());
    this.shown.set(account, { uri, text });
    return text;
  }

  private changed(account: Account): void {
    const shown = this.shown.get(account);
    if (!shown) return;
    const key = shown.uri.toString();
    if (!vscode.workspace.textDocuments.some((document) => document.uri.toString() === key)) {
      this.shown.delete(account);
    } else if (forecastMarkdown(account, account.forecast()) !== shown.text) {
      this.emitter.fire(shown.uri);
    }
  }
}

/** Our words in a table cell: a `|` would end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** http(s) only (checked again here), with every character that could end a link or a table cell percent-encoded. */
function safeLink(url: string | undefined): string | undefined {
  if (url === undefined || url.length > MAX_LINK) return undefined;
  try {
    const { protocol, href } = new URL(url);
    if (protocol !== 'https:' && protocol !== 'http:') return undefined;
    return href.replace(/[()<>[\]|\\"'` ]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return undefined;
  }
}

function forecastMarkdown(account: Account, forecast: Forecast): string {
  const { store } = account;
  const { today } = forecast;
  const name = account.shownName();
  const lines: string[] = [
    `# ${name ? vscode.l10n.t('Renewal forecast: {0}', forMarkdown(name, 60)) : vscode.l10n.t('Renewal forecast')}`,
    '',
  ];
  if (store.state !== 'ready' && store.balance.value === undefined) {
    lines.push(vscode.l10n.t('Nothing has been read from this account yet: set its API key or refresh it.'));
    return `${lines.join('\n')}\n`;
  }
  const until = dayWords(forecast.horizonEnd, today);
  if (forecast.balance === undefined) {
    lines.push(vscode.l10n.t('The balance has not been read: the renewals until {0} are listed without it.', until));
  } else {
    const balance = moneyWords(forecast.balance, forecast.currency);
    const at = store.balance.updatedAt;
    const time = at ? new Date(at).toLocaleTimeString(vscode.env.language, { hour: 'numeric', minute: '2-digit' }) : '';
    lines.push(
      time
        ? vscode.l10n.t('Balance **{0}** (read at {1}); the renewals until {2}.', balance, time, until)
        : vscode.l10n.t('Balance **{0}**; the renewals until {1}.', balance, until),
    );
  }
  const sentence = coverageSentence(forecast, forMarkdown);
  if (sentence) lines.push('', `**${sentence}**`);
  if (forecast.runsOut) {
    lines.push('', vscode.l10n.t('The balance runs out on **{0}**.', dayWords(forecast.runsOut.day, today)));
  }
  const caveats = forecastCaveats(forecast);
  if (caveats.length) lines.push('', ...caveats.map((caveat) => `- ${caveat}`));
  lines.push('', ...renewalsTable(forecast));
  lines.push('', `## ${vscode.l10n.t('Unpaid invoices')}`, '', ...invoicesTable(account, forecast));
  const site = safeLink(account.websiteUrl);
  if (site) lines.push('', `[${vscode.l10n.t("Add funds or pay on your provider's website")}](${site})`);
  if (store.ordersInfo.updatedAt === undefined) {
    lines.push('', vscode.l10n.t('The servers have not been read yet: their renewals are missing.'));
  }
  lines.push(
    '',
    `*${vscode.l10n.t("Later renewals of a server follow from its billing cycle. Each charge is assumed to be paid from the balance in date order; a renewal priced in another currency than the balance's is listed but not counted.")}*`,
  );
  return `${lines.join('\n')}\n`;
}

function renewalsTable(forecast: Forecast): string[] {
  const { renewals, today } = forecast;
  if (!renewals.length) return [vscode.l10n.t('No renewals until {0}.', dayWords(forecast.horizonEnd, today))];
  const rows = [
    `| ${[vscode.l10n.t('Date'), vscode.l10n.t('What'), vscode.l10n.t('Amount'), vscode.l10n.t('Balance after')].map(cell).join(' | ')} |`,
    '| --- | --- | ---: | ---: |',
  ];
  for (const renewal of renewals.slice(0, MAX_RENEWAL_ROWS)) rows.push(renewalRow(renewal, today, forecast.currency));
  const more = renewals.length - MAX_RENEWAL_ROWS;
  if (more > 0) {
    const until = dayWords(forecast.horizonEnd, today);
    const text =
      more === 1
        ? vscode.l10n.t('… and 1 more renewal until {0}, not listed.', until)
        : vscode.l10n.t('… and {0} more renewals until {1}, not listed.', more, until);
    rows.push('', `*${cell(text)}*`);
  }
  return rows;
}

// Money as moneyWords formats it (digits, separators, a symbol or a code) needs no escaping.
function renewalRow(renewal: ForecastRenewal, today: string, currency: string | undefined): string {
  const day = dayWords(renewal.day, today);
  const when = renewal.overdue ? vscode.l10n.t('{0} (overdue)', day) : day;
  const what = subjectWords(renewal, forMarkdown);
  let amount: string;
  switch (renewal.kind) {
    case 'charge':
      amount = moneyWords(renewal.amount ?? 0, renewal.currency);
      break;
    case 'expires':
      amount = vscode.l10n.t('ends: does not renew');
      break;
    case 'unpriced':
      amount = renewal.priceProblem
        ? vscode.l10n.t('price unreadable: {0}', amountProblemWords(renewal.priceProblem))
        : vscode.l10n.t('price unknown');
      break;
    case 'otherCurrency':
      amount = vscode.l10n.t('{0}, not counted', moneyWords(renewal.amount ?? 0, renewal.currency));
      break;
  }
  let after = '';
  if (renewal.balanceAfter !== undefined) {
    const balance = moneyWords(renewal.balanceAfter, currency);
    after =
      renewal.covered === false
        ? vscode.l10n.t('**{0}** (short by {1})', balance, moneyWords(renewal.shortBy ?? 0, currency))
        : balance;
  }
  return `| ${[cell(when), what, cell(amount), cell(after)].join(' | ')} |`;
}

function invoicesTable(account: Account, forecast: Forecast): string[] {
  if (account.store.invoices.value === undefined) {
    return [vscode.l10n.t('The invoices have not been read yet: open the Invoices view or refresh to include them.')];
  }
  const unpaid = forecast.unpaidInvoices;
  if (!unpaid.length) return [vscode.l10n.t('None.')];
  const site = safeLink(account.websiteUrl);
  const rows = [
    `| ${[vscode.l10n.t('Invoice'), vscode.l10n.t('Due'), vscode.l10n.t('Amount'), ''].map(cell).join(' | ')} |`,
    '| --- | --- | ---: | --- |',
  ];
  for (const invoice of unpaid.slice(0, MAX_INVOICE_ROWS)) rows.push(invoiceRow(invoice, forecast.today, site));
  const more = unpaid.length - MAX_INVOICE_ROWS;
  if (more > 0) {
    const text =
      more === 1
        ? vscode.l10n.t('… and 1 more unpaid invoice.')
        : vscode.l10n.t('… and {0} more unpaid invoices.', more);
    rows.push('', `*${cell(text)}*`);
  }
  return rows;
}

function invoiceRow(invoice: UnpaidInvoice, today: string, site: string | undefined): string {
  const name = forMarkdown(invoice.number ?? `#${invoice.invoiceId}`, 60);
  const day = invoice.day ? dayWords(invoice.day, today) : '';
  const due = invoice.overdue ? (day ? vscode.l10n.t('{0} (overdue)', day) : vscode.l10n.t('overdue')) : day;
  const amount = invoice.amount === undefined ? '' : moneyWords(invoice.amount, invoice.currency);
  const link = safeLink(invoice.url);
  const pay = link
    ? `[${cell(vscode.l10n.t('Pay'))}](${link})`
    : site
      ? `[${cell(vscode.l10n.t("Pay on your provider's website"))}](${site})`
      : '';
  return `| ${[name, cell(due), amount, pay].join(' | ')} |`;
}
