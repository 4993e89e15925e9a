import * as vscode from 'vscode';
import { filterLabel, groupingLabel, sortLabel } from '../views/orders/arrangementWords';
import {
  ORDER_FILTERS,
  ORDER_GROUPINGS,
  ORDER_SORTS,
  type OrderFilter,
  type OrderGrouping,
  type OrderSort,
} from '../views/orders/filter';
import { type OrdersArrangement } from '../views/orders/OrdersArrangement';

/** Filter Servers…: with an argument (a welcome-view link, a keybinding), that filter; without one, the user's pick. */
export async function pickFilter(arrangement: OrdersArrangement, arg: unknown): Promise<void> {
  const current = arrangement.arrangement.filter;
  const filter =
    ORDER_FILTERS.find((f) => f === arg) ??
    (await pick(ORDER_FILTERS, current, filterLabel, vscode.l10n.t('Show servers')));
  if (filter) await arrangement.set({ filter });
}

/** Sort Servers…: as the server sent them, by name or by state. */
export async function pickSort(arrangement: OrdersArrangement, arg: unknown): Promise<void> {
  const current = arrangement.arrangement.sort;
  const sort =
    ORDER_SORTS.find((s) => s === arg) ?? (await pick(ORDER_SORTS, current, sortLabel, vscode.l10n.t('Sort servers')));
  if (sort) await arrangement.set({ sort });
}

/** Group By…: none, state, plan, location, renewal month or the user's labels. */
export async function pickGroup(arrangement: OrdersArrangement, arg: unknown): Promise<void> {
  const current = arrangement.arrangement.group;
  const group =
    ORDER_GROUPINGS.find((g) => g === arg) ??
    (await pick(ORDER_GROUPINGS, current, groupingLabel, vscode.l10n.t('Group servers')));
  if (group) await arrangement.set({ group });
}

interface Choice<T> extends vscode.QuickPickItem {
  readonly value: T;
}

async function pick<T extends OrderFilter | OrderSort | OrderGrouping>(
  values: readonly T[],
  current: T,
  label: (value: T) => string,
  title: string,
): Promise<T | undefined> {
  const items: Array<Choice<T>> = values.map((value) => ({
    value,
    label: label(value),
    description: value === current ? vscode.l10n.t('current') : undefined,
    picked: value === current,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title, placeHolder: label(current) });
  return chosen?.value;
}
