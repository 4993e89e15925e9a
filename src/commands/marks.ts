import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { MAX_LABEL, MAX_MARKS } from '../accounts/ServerMarks';
import { forLabel, forLog } from '../notify/inert';
import { tell } from '../notify/show';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

// From the palette, the pick lists only the servers it would change.
export async function setMark(
  account: Account,
  arg: unknown,
  mark: 'protected' | 'pinned',
  on: boolean,
): Promise<void> {
  const order = await pickOrder(account, arg, (o) => (account.marks.of(o.id)[mark] === true) !== on);
  if (!(await account.marks.set(order.id, { [mark]: on }))) tooMany();
  account.log.info(`order ${forLog(order.id, 80)}: ${mark} ${on ? 'on' : 'off'}`);
}

export async function setLabel(account: Account, arg: unknown): Promise<void> {
  const order = await pickOrder(account, arg);
  const label = await vscode.window.showInputBox({
    title: vscode.l10n.t('Label for {0}', forLabel(order.label, 60)),
    prompt: vscode.l10n.t('A short label to group servers by. Leave it empty to remove the label.'),
    value: account.marks.of(order.id).label ?? '',
    validateInput: (value) =>
      value.trim().length > MAX_LABEL ? vscode.l10n.t('At most {0} characters.', MAX_LABEL) : undefined,
  });
  if (label === undefined) throw new UserCancelled();
  if (!(await account.marks.set(order.id, { label: label.trim() }))) tooMany();
}

// Past the bound a new mark is refused, and said so.
function tooMany(): never {
  const many = vscode.l10n.t(
    'Not saved: {0} servers of this account are protected, pinned or labelled already. Remove one of those marks first.',
    MAX_MARKS,
  );
  void tell('error', many);
  throw new UserCancelled();
}
