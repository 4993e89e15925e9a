import * as vscode from 'vscode';
import { forLabel } from '../../notify/inert';
import { type OrderFilter, type OrderGrouping, type OrderSort, type StateGroup } from './filter';

export function filterLabel(filter: OrderFilter): string {
  return {
    all: vscode.l10n.t('All servers'),
    running: vscode.l10n.t('Running'),
    stopped: vscode.l10n.t('Stopped'),
    busy: vscode.l10n.t('Busy (an action under way)'),
    other: vscode.l10n.t('Other (suspended or unknown)'),
  }[filter];
}

export function filterWord(filter: Exclude<OrderFilter, 'all'>): string {
  return {
    running: vscode.l10n.t('running'),
    stopped: vscode.l10n.t('stopped'),
    busy: vscode.l10n.t('busy'),
    other: vscode.l10n.t('other'),
  }[filter];
}

export function sortLabel(sort: OrderSort): string {
  return {
    server: vscode.l10n.t('As the server sent them'),
    name: vscode.l10n.t('By name'),
    state: vscode.l10n.t('By state'),
  }[sort];
}

export function groupingLabel(by: OrderGrouping): string {
  return {
    none: vscode.l10n.t('No groups'),
    state: vscode.l10n.t('By state'),
    plan: vscode.l10n.t('By plan'),
    location: vscode.l10n.t('By location'),
    renewal: vscode.l10n.t('By renewal month'),
    label: vscode.l10n.t('By your labels'),
  }[by];
}

export function groupLabel(by: Exclude<OrderGrouping, 'none'>, key: string): string {
  if (by === 'state') return filterLabel(key as StateGroup);
  if (by === 'renewal' && key) {
    const [year, month] = key.split('-').map(Number);
    return new Date(year ?? 0, (month ?? 1) - 1, 1).toLocaleDateString(vscode.env.language, {
      year: 'numeric',
      month: 'long',
    });
  }
  if (key) return forLabel(key, 60);
  return {
    plan: vscode.l10n.t('No plan'),
    location: vscode.l10n.t('No location'),
    renewal: vscode.l10n.t('No renewal date'),
    label: vscode.l10n.t('No label'),
  }[by];
}

// Phrases of their own, not lower-cased labels: German nouns keep their capitals.
export function sortWord(sort: Exclude<OrderSort, 'server'>): string {
  return sort === 'name' ? vscode.l10n.t('by name') : vscode.l10n.t('by state');
}

export function groupWord(by: Exclude<OrderGrouping, 'none'>): string {
  return {
    state: vscode.l10n.t('grouped by state'),
    plan: vscode.l10n.t('grouped by plan'),
    location: vscode.l10n.t('grouped by location'),
    renewal: vscode.l10n.t('grouped by renewal month'),
    label: vscode.l10n.t('grouped by your labels'),
  }[by];
}
