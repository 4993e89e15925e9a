import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type AnswerKind, type LastAnswer } from '../api/ApiClient';
import { forDocument } from '../notify/inert';
import { documentUri, ReadOnlyDocument, removedText } from './ReadOnlyDocument';

export const SENT_SCHEME = 'hosting-account-sent';

type SentTopic = 'orders' | 'invoices' | 'all';
const KINDS: Readonly<Record<SentTopic, readonly AnswerKind[]>> = {
  orders: ['orders', 'order', 'action'],
  invoices: ['invoices'],
  all: ['orders', 'order', 'action', 'balance', 'invoices', 'me'],
};

export function sentUri(account: Account, topic: SentTopic): vscode.Uri {
  return documentUri(SENT_SCHEME, account, vscode.l10n.t('What the Server Sent'), 'json', `${topic}/`);
}

/** An answer cut short, or refused unread, is never parsed here: the readers' bounds already judged it. */
export function answerBody(answer: LastAnswer | undefined): unknown {
  if (!answer) return undefined;
  if (answer.cut || !answer.parsed) return answer.text;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return answer.text;
  }
}

export class ServerAnswerDocument extends ReadOnlyDocument implements vscode.TextDocumentContentProvider {
  protected readonly scheme = SENT_SCHEME;
  constructor(model: AccountModel) {
    super(model);
    this.register(
      model.onDidChangeData(({ account }) => {
        for (const topic of Object.keys(KINDS) as SentTopic[]) this.emitter.fire(sentUri(account, topic));
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const account = this.accountOf(uri);
    if (!account) return removedText();
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
