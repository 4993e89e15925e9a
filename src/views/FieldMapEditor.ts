import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { fieldMapTemplate } from '../accounts/fieldMapText';
import { forLabel } from '../notify/inert';
import { Disposable } from '../util/lifecycle';

/** The untitled JSON documents a map is taught in, each for one account, with a Save Field Map lens at the top. */
export class FieldMapEditor extends Disposable implements vscode.CodeLensProvider {
  private readonly documents = new Map<string, Account>();

  constructor() {
    super();
    this.register(vscode.workspace.onDidCloseTextDocument((doc) => this.documents.delete(doc.uri.toString())));
    this.register(vscode.languages.registerCodeLensProvider({ scheme: 'untitled', language: 'json' }, this));
  }

  async open(account: Account): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({
      language: 'json',
      content: fieldMapTemplate(account.record.fieldMap),
    });
    this.documents.set(document.uri.toString(), account);
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  // Only a map opened here: Save closes it unsaved, which must never befall the user's own JSON.
  documentOf(account: Account): vscode.TextDocument | undefined {
    const active = vscode.window.activeTextEditor?.document;
    if (active && this.documents.get(active.uri.toString()) === account) return active;
    return vscode.workspace.textDocuments.find((doc) => this.documents.get(doc.uri.toString()) === account);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const account = this.documents.get(document.uri.toString());
    if (!account) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const name = account.shownName();
    return [
      new vscode.CodeLens(top, {
        title: name
          ? vscode.l10n.t('$(check) Preview and Save Field Map of {0}', forLabel(name, 60))
          : vscode.l10n.t('$(check) Preview and Save Field Map'),
        command: 'hostingAccount.account.saveFieldMap',
        arguments: [account],
      }),
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('$(json) Show What the Server Sent'),
        command: 'hostingAccount.showServerAnswer',
        arguments: [account],
      }),
    ];
  }
}
