import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { FIELD_MAP_KEYS, type FieldMap, parseFieldMap } from '../api/normalise/fieldMap';
import { forLabel } from '../notify/inert';
import { Disposable } from '../util/lifecycle';

/** The document a map is edited in: every field the map knows, `null` where the general reading decides. */
export function fieldMapTemplate(map: FieldMap | undefined): string {
  const pointers = Object.fromEntries(FIELD_MAP_KEYS.map((key) => [key, map?.pointers[key] ?? null]));
  return `${JSON.stringify({ pointers, amountScale: map?.amountScale ?? null }, null, 2)}\n`;
}

/**
 * The map an edited document holds (`null` fields left out), or undefined for none at all; throws a SyntaxError for
 * text that is not JSON and `parseFieldMap`'s typed ApiError for a map that breaks its rules.
 */
export function editedFieldMap(text: string): FieldMap | undefined {
  const top = withoutNulls(JSON.parse(text));
  const map = parseFieldMap(
    isObject(top) && 'pointers' in top ? { ...top, pointers: withoutNulls(top.pointers) } : top,
  );
  return Object.keys(map.pointers).length || map.amountScale ? map : undefined;
}

function withoutNulls(value: unknown): unknown {
  return isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The untitled JSON documents a map is taught in, each for one account, with a Save Field Map lens at the top (the
 * command works from the palette too, for the active document).
 */
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

  /** The document the account's map is taught in: the active one if it is, else one open for it, else any JSON. */
  documentOf(account: Account): vscode.TextDocument | undefined {
    const active = vscode.window.activeTextEditor?.document;
    if (active && this.documents.get(active.uri.toString()) === account) return active;
    const open = vscode.workspace.textDocuments.find((doc) => this.documents.get(doc.uri.toString()) === account);
    return open ?? (active?.languageId === 'json' ? active : undefined);
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
