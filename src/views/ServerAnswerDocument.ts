import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { DEFAULT_ACCOUNT_ID } from '../accounts/accountList';
import { type AnswerKind, type LastAnswer } from '../api/ApiClient';
import { forDocument } from '../notify/inert';
import { Disposable } from '../util/lifecycle';

export const SENT_SCHEME = 'hosting-account-sent';

/** Which answers a document shows: a row's own list, or everything an account last received. */
export type SentTopic = 'orders' | 'invoices' | 'all';
const KINDS: Readonly<Record<SentTopic, readonly AnswerKind[]>> = {
  orders: ['orders', 'order', 'action'],
  invoices: ['invoices'],
  all: ['orders', 'order', 'action', 'balance', 'invoices', 'me'],
};

/** `hosting-account-sent://<account>/<topic>/<title>.json`: the title only names the tab. */
export function sentUri(account: Account, topic: SentTopic): vscode.Uri {
  return vscode.Uri.from({
    scheme: SENT_SCHEME,
    authority: account.id === DEFAULT_ACCOUNT_ID ? '' : account.id,
    path: `/${topic}/${vscode.l10n.t('What the Server Sent').replace(/[\\/:*?"<>|\p{C}]+/gu, '_')}.json`,
  });
}

/**
 * The body of an answer as JSON when it was read whole (its text is masked, so it is read from the text), else its
 * text. An answer cut short, or refused unread, is never parsed here: the readers' bounds already judged it.
 */
export function answerBody(answer: LastAnswer | undefined): unknown {
  if (!answer) return undefined;
  if (answer.cut || !answer.parsed) return answer.text;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return answer.text;
  }
}

/** Read-only JSON documents of what an account's server last sent: masked, cut, invisible characters escaped. */
export class ServerAnswerDocument extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;

  constructor(private readonly model: AccountModel) {
    super();
    this.register(
      model.onDidChangeData(({ account }) => {
        for (const topic of Object.keys(KINDS) as SentTopic[]) this.emitter.fire(sentUri(account, topic));
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const account = this.model.get(uri.authority || DEFAULT_ACCOUNT_ID);
    if (!account) throw new Error(vscode.l10n.t('This account was removed.'));
    const topic = uri.path.split('/')[1] ?? '';
    const shown: Record<string, unknown> = {};
    for (const kind of Object.hasOwn(KINDS, topic) ? KINDS[topic as SentTopic] : KINDS.all) {
      const answer = account.store.lastAnswer(kind);
      if (!answer) continue;
      shown[`${answer.method} ${answer.path}`] = {
        status: answer.status,
        received: new Date(answer.at).toISOString(),
        ...(answer.cut ? { cut: vscode.l10n.t('only the first 256 KB are kept') } : {}),
        body: answerBody(answer),
      };
    }
    if (!Object.keys(shown).length) {
      shown.note = vscode.l10n.t('Nothing received yet. This document shows the answers as they arrive.');
    }
    return `${forDocument(JSON.stringify(shown, null, 2))}\n`;
  }
}
