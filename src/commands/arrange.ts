import * as vscode from 'vscode';
import { filterLabel, groupingLabel, sortLabel } from '../views/orders/arrangementWords';
import { type Arrangement, ORDER_FILTERS, ORDER_GROUPINGS, ORDER_SORTS } from '../views/orders/filter';
import { type OrdersArrangement } from '../views/orders/OrdersArrangement';

const CHOICES: {
  readonly [K in keyof Arrangement]: {
    values: readonly Arrangement[K][];
    label: (value: Arrangement[K]) => string;
    title: () => string;
  };
} = {
  filter: { values: ORDER_FILTERS, label: filterLabel, title: () => vscode.l10n.t('Show servers') },
  sort: { values: ORDER_SORTS, label: sortLabel, title: () => vscode.l10n.t('Sort servers') },
  group: { values: ORDER_GROUPINGS, label: groupingLabel, title: () => vscode.l10n.t('Group servers') },
};

/** With an argument (a welcome-view link, a keybinding), that value; without one, the user's pick. */
export async function pickArrangement<K extends keyof Arrangement>(
  arrangement: OrdersArrangement,
  key: K,
  arg: unknown,
): Promise<void> {
  const { values, label, title } = CHOICES[key];
  const current = arrangement.arrangement[key];
  const items = values.map((value) => ({
    value,
    label: label(value),
    description: value === current ? vscode.l10n.t('current') : undefined,
    picked: value === current,
  }));
  const value =
    values.find((v) => v === arg) ??
    (await vscode.window.showQuickPick(items, { title: title(), placeHolder: label(current) }))?.value;
  if (value !== undefined) await arrangement.set({ [key]: value });
}
