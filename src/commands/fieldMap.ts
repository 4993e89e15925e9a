import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { editedFieldMap } from '../accounts/fieldMapText';
import { ApiError } from '../api/errors';
import { preview } from '../api/normalise/fieldMap';
import { fieldMapPreviewText } from '../notify/fieldMapPreview';
import { forLabel, forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { reasonText } from '../notify/reasonText';
import { confirm, tell } from '../notify/show';
import { answerBody, sentUri } from '../views/ServerAnswerDocument';
import { type CommandHost } from './CommandHost';
import { UserCancelled } from './UserCancelled';

// With what the server last sent beside it, to point into.
export async function editFieldMap(host: CommandHost, account: Account): Promise<void> {
  await host.fieldMaps.open(account);
  await vscode.window.showTextDocument(sentUri(account, 'all'), {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: true,
  });
}

/** Shows what the map reads from the last answers first; a map that breaks a rule is refused with the rule. */
export async function saveFieldMap(host: CommandHost, account: Account): Promise<void> {
  const document = host.fieldMaps.documentOf(account);
  if (!document) {
    void tell('info', vscode.l10n.t('Open the field map first: Teach the Field Map… opens it.'));
    throw new UserCancelled();
  }
  let map;
  try {
    map = editedFieldMap(document.getText());
  } catch (error) {
    const why =
      error instanceof ApiError && error.reason
        ? reasonText(error.reason)
        : vscode.l10n.t('The field map is not valid JSON, so it was not used.');
    void tell('error', why);
    throw new UserCancelled();
  }
  const { store } = account;
  const unread: string[] = [];
  // A cut or unparsed answer is only text: the map is not tried on it, and the preview says so.
  const last = (kind: 'orders' | 'order' | 'balance' | 'invoices'): unknown => {
    const answer = store.lastAnswer(kind);
    if (answer && (answer.cut || !answer.parsed)) unread.push(answer.path);
    return answer?.parsed && !answer.cut ? answerBody(answer) : undefined;
  };
  const read = map
    ? fieldMapPreviewText(
        preview(map, {
          orders: last('orders'),
          order: last('order'),
          orderId: lastSegment(store.lastAnswer('order')?.path),
          balance: last('balance'),
          invoices: last('invoices'),
        }),
        unread,
      )
    : vscode.l10n.t('Without a map, every answer is read as usual.');
  const name = account.shownName();
  // Computed before saving: the saved map starts the store over, and the last answers with it.
  const { pairs, lost } = account.carryOver(map);
  const shown = lost.slice(0, 15).map((id) => forMessage(store.orders.get(id)?.label ?? id, 60));
  const losing = vscode.l10n.t(
    'The protection, pins and labels of these servers cannot follow them to the IDs this map reads, and will be lost: {0}.',
    namedList(shown, lost.length),
  );
  const sure = await confirm(
    name
      ? vscode.l10n.t('Save the field map of {0}? From the last answers it reads:', forLabel(name, 60))
      : vscode.l10n.t('Save the field map? From the last answers it reads:'),
    lost.length ? `${read}\n\n${losing}` : read,
    vscode.l10n.t('Save Field Map'),
  );
  if (!sure) throw new UserCancelled();
  await host.model.setFieldMap(account.id, map);
  await account.marks.move(pairs);
  if (vscode.window.activeTextEditor?.document === document) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

// The single-order path ends with the id asked for, encoded.
function lastSegment(path: string | undefined): string | undefined {
  try {
    return path === undefined ? undefined : decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return undefined;
  }
}
