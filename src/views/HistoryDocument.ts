import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type HistoryEvent, MAX_EVENTS } from '../accounts/History';
import { type OrderState } from '../api/models';
import { forDocument, forLabel } from '../notify/inert';
import { actionTitle, stateLabel } from '../notify/orderWords';
import { authorityOf, documentUri, ReadOnlyDocument, removedText } from './ReadOnlyDocument';

export const HISTORY_SCHEME = 'hosting-account-history';
const STATES: readonly string[] = ['running', 'stopped', 'busy', 'suspended', 'unknown'];

export function historyUri(account: Account, id?: string, name?: string): vscode.Uri {
  const title = name ? vscode.l10n.t('History of {0}', name) : vscode.l10n.t('Hosting History');
  const shown = account.shownName();
  const file = `${title}${shown ? ` – ${shown}` : ''}`.slice(0, 100);
  return documentUri(HISTORY_SCHEME, account, file, 'log', '', id === undefined ? '' : encodeURIComponent(id));
}

export class HistoryDocument extends ReadOnlyDocument implements vscode.TextDocumentContentProvider {
  protected readonly scheme = HISTORY_SCHEME;
  private readonly watched = new WeakSet<Account>();

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const account = this.accountOf(uri);
    if (!account) return removedText();
    if (!this.watched.has(account)) {
      this.watched.add(account);
      account.history.onDidAppend(() => this.changed(account));
    }
    const id = uri.query ? decodeURIComponent(uri.query) : undefined;
    const events = (await account.history.read()).filter((event) => id === undefined || event.id === id);
    const name = account.shownName();
    const head =
      id !== undefined
        ? vscode.l10n.t(
            'History of a server: newest first, your last {0} actions and the last {0} changes seen, 90 days at most.',
            MAX_EVENTS,
          )
        : name
          ? vscode.l10n.t(
              'History of the account {0}: newest first, your last {1} actions and the last {1} changes seen, 90 days at most.',
              forLabel(name, 60),
              MAX_EVENTS,
            )
          : vscode.l10n.t(
              'History of the account: newest first, your last {0} actions and the last {0} changes seen, 90 days at most.',
              MAX_EVENTS,
            );
    const lines = historyLines(events, Date.now());
    return [head, '', ...(lines.length ? lines : [vscode.l10n.t('Nothing yet.')]), ''].join('\n');
  }

  private changed(account: Account): void {
    for (const { uri } of vscode.workspace.textDocuments) {
      if (uri.scheme === HISTORY_SCHEME && uri.authority === authorityOf(account)) this.emitter.fire(uri);
    }
  }
}

/** Newest first: when, the server's name as seen then, what happened. */
export function historyLines(events: readonly HistoryEvent[], now: number): string[] {
  // As appended: a clock once set a year ahead does not keep its events on top.
  const newest = [...events].reverse();
  const whens = newest.map((event) => when(event.at, now));
  const names = newest.map((event) => forLabel(event.name ?? event.id, 40));
  const [w1, w2] = [whens, names].map((cells) => Math.max(0, ...cells.map((cell) => cell.length)));
  return newest.map((event, i) => `${whens[i]?.padEnd(w1 ?? 0)}  ${names[i]?.padEnd(w2 ?? 0)}  ${what(event)}`);
}

export function historyLine(event: HistoryEvent, now: number): string {
  return `${when(event.at, now)}: ${what(event)}`;
}

/** Column names are the file's keys, not translated. */
export function historyCsv(events: readonly HistoryEvent[]): string {
  const head = ['time', 'server id', 'server', 'event'];
  const rows = events.map((e) => [new Date(e.at).toISOString(), e.id, forLabel(e.name ?? '', 80), what(e)]);
  return `${[head, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export function historyJson(events: readonly HistoryEvent[]): string {
  const rows = events.map((e) => ({ ...e, time: new Date(e.at).toISOString(), event: what(e) }));
  return `${forDocument(JSON.stringify(rows, null, 2))}\n`;
}

/** A cell a spreadsheet reads as text: quoted, and never a formula. */
function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

function what(event: HistoryEvent): string {
  const text = (value: string | undefined): string => forLabel(value ?? '', 80);
  const state = (value: string | undefined): string =>
    value && STATES.includes(value) ? stateLabel(value as OrderState) : text(value);
  const action = event.action ? actionTitle(event.action) : '';
  const [after, at] = [clock(event.since ?? 0, event.at), clock(event.at, event.at)];
  // A change made elsewhere was seen at one read, or somewhere between two times: each case is its own sentence.
  const seen = !event.since ? 'here' : after === at ? 'at' : 'between';
  switch (event.kind) {
    case 'sent':
      return sentText(action, event.source, event.error ? text(event.error) : undefined);
    case 'settled': {
      const seconds = Math.round((event.ms ?? 0) / 1_000);
      return seconds < 90
        ? vscode.l10n.t('{0} settled: {1} after {2} s', action, state(event.to), seconds)
        : vscode.l10n.t('{0} settled: {1} after {2} min', action, state(event.to), Math.round(seconds / 60));
    }
    case 'stopped':
    case 'suspended':
    case 'running': {
      const [now, was] = [stateLabel(event.kind), state(event.from)];
      if (seen === 'here') return vscode.l10n.t('{0} outside this window, was {1}', now, was);
      return seen === 'at'
        ? vscode.l10n.t('{0} outside this window, was {1} (between two reads at {2})', now, was, at)
        : vscode.l10n.t('{0} outside this window, was {1} (seen between {2} and {3})', now, was, after, at);
    }
    case 'appeared':
      if (seen === 'here') return vscode.l10n.t('Appeared in the account');
      return seen === 'at'
        ? vscode.l10n.t('Appeared in the account (between two reads at {0})', at)
        : vscode.l10n.t('Appeared in the account (seen between {0} and {1})', after, at);
    case 'disappeared':
      if (seen === 'here') return vscode.l10n.t('No longer in the account');
      return seen === 'at'
        ? vscode.l10n.t('No longer in the account (between two reads at {0})', at)
        : vscode.l10n.t('No longer in the account (seen between {0} and {1})', after, at);
    case 'edited': {
      const [field, from, to] = [fieldWord(event.field), text(event.from), text(event.to)];
      if (seen === 'here') return vscode.l10n.t('{0} changed outside this window: {1} → {2}', field, from, to);
      return seen === 'at'
        ? vscode.l10n.t('{0} changed outside this window: {1} → {2} (between two reads at {3})', field, from, to, at)
        : vscode.l10n.t(
            '{0} changed outside this window: {1} → {2} (seen between {3} and {4})',
            field,
            from,
            to,
            after,
            at,
          );
    }
  }
}

/** Where an action was sent from, and what the hosting API answered, as one sentence per case. */
function sentText(action: string, source: HistoryEvent['source'], error: string | undefined): string {
  const ok = error === undefined;
  switch (source) {
    case 'menu':
      return ok
        ? vscode.l10n.t('{0} sent from the menu: accepted', action)
        : vscode.l10n.t('{0} sent from the menu, not accepted: {1}', action, error);
    case 'palette':
      return ok
        ? vscode.l10n.t('{0} sent from the Command Palette: accepted', action)
        : vscode.l10n.t('{0} sent from the Command Palette, not accepted: {1}', action, error);
    case 'bulk':
      return ok
        ? vscode.l10n.t('{0} sent to several servers at once: accepted', action)
        : vscode.l10n.t('{0} sent to several servers at once, not accepted: {1}', action, error);
    case 'task':
      return ok
        ? vscode.l10n.t('{0} sent by a task: accepted', action)
        : vscode.l10n.t('{0} sent by a task, not accepted: {1}', action, error);
    case 'assistant':
      return ok
        ? vscode.l10n.t('{0} sent by the assistant: accepted', action)
        : vscode.l10n.t('{0} sent by the assistant, not accepted: {1}', action, error);
    case 'notice':
      return ok
        ? vscode.l10n.t('{0} sent from a notification: accepted', action)
        : vscode.l10n.t('{0} sent from a notification, not accepted: {1}', action, error);
    case undefined:
      return ok
        ? vscode.l10n.t('{0} sent: accepted', action)
        : vscode.l10n.t('{0} sent, not accepted: {1}', action, error);
  }
}

function fieldWord(field: HistoryEvent['field']): string {
  const words: Record<NonNullable<HistoryEvent['field']>, string> = {
    label: vscode.l10n.t('Name'),
    address: vscode.l10n.t('Address'),
    plan: vscode.l10n.t('Plan'),
    renewal: vscode.l10n.t('Next renewal'),
  };
  return words[field ?? 'renewal'];
}

interface Formats {
  language: string;
  days: Intl.RelativeTimeFormat;
  time: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
}
let formats: Formats | undefined;

/** Made once per language: a history of 500 lines formats 1,500 times. */
function format(): Formats {
  const { language } = vscode.env;
  if (formats?.language !== language) {
    const days = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' });
    formats = { language, days, time, day: new Intl.DateTimeFormat(language) };
  }
  return formats;
}

/** "today 10:02", "yesterday 18:40", "3 days ago 09:15", in the user's language and zone. */
function when(at: number, now: number): string {
  const day = (t: number): number => {
    const d = new Date(t);
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;
  };
  return `${format().days.format(day(at) - day(now), 'day')} ${clock(at, at)}`;
}

function clock(at: number, ref: number): string {
  const { time, day } = format();
  const sameDay = new Date(at).toDateString() === new Date(ref).toDateString();
  return sameDay ? time.format(at) : `${day.format(at)} ${time.format(at)}`;
}
