import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { DEFAULT_ACCOUNT_ID } from '../accounts/accountList';
import { Disposable } from '../util/lifecycle';

export function authorityOf(account: Account): string {
  return account.id === DEFAULT_ACCOUNT_ID ? '' : account.id;
}

/** `<scheme>://<account>/<dir><name>.<ext>`: the name only titles the tab, so what a file name refuses becomes `_`. */
export function documentUri(scheme: string, account: Account, name: string, ext: string, dir = '', query = '') {
  const path = `/${dir}${name.replace(/[\\/:*?"<>|\p{C}]+/gu, '_')}.${ext}`;
  return vscode.Uri.from({ scheme, authority: authorityOf(account), path, query });
}

/** A read-only document of the account its URI names; a document never reads another account. */
export abstract class ReadOnlyDocument extends Disposable {
  protected readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;
  protected abstract readonly scheme: string;

  constructor(protected readonly model: AccountModel) {
    super();
    this.register(
      model.onDidChange(() => {
        for (const { uri } of vscode.workspace.textDocuments) {
          if (uri.scheme === this.scheme && !this.accountOf(uri)) this.emitter.fire(uri);
        }
      }),
    );
  }

  protected accountOf(uri: vscode.Uri): Account | undefined {
    return this.model.get(uri.authority || DEFAULT_ACCOUNT_ID);
  }
}

/** An open tab is asked again after its account is removed: it says so rather than failing. */
export function removedText(): string {
  return `${vscode.l10n.t('This account was removed.')}\n`;
}
