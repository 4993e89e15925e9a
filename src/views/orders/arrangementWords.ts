import * as vscode from 'vscode';
import { forLabel } from '../../notify/inert';
import { type OrderFilter, type OrderGrouping, type OrderSort, type StateGroup } from './filter';

export function filterLabel(filter: OrderFilter): string {
  switch (filter) {
    case 'all':
      return vscode.l10n.t('All servers');
    case 'running':
      return vscode.l10n.t('Running');
    case 'stopped':
      return vscode.l10n.t('Stopped');
    case 'busy':
      return vscode.l10n.t('Busy (an action under way)');
    case 'other':
      return vscode.l10n.t('Other (suspended or unknown)');
  }
}

export function filterWord(filter: Exclude<OrderFilter, 'all'>): string {
  switch (filter) {
    case 'running':
      return vscode.l10n.t('running');
    case 'stopped':
      return vscode.l10n.t('stopped');
    case 'busy':
      return vscode.l10n.t('busy');
    case 'other':
      return vscode.l10n.t('other');
  }
}

export function sortLabel(sort: OrderSort): string {
  switch (sort) {
    case 'server':
      return vscode.l10n.t('As the server sent them');
    case 'name':
      return vscode.l10n.t('By name');
    case 'state':
      return vscode.l10n.t('By state');
  }
}

export function groupingLabel(by: OrderGrouping): string {
  switch (by) {
    case 'none':
      return vscode.l10n.t('No groups');
    case 'state':
      return vscode.l10n.t('By state');
    case 'plan':
      return vscode.l10n.t('By plan');
    case 'location':
      return vscode.l10n.t('By location');
    case 'renewal':
      return vscode.l10n.t('By renewal month');
    case 'label':
      return vscode.l10n.t('By your labels');
  }
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
  switch (by) {
    case 'plan':
      return vscode.l10n.t('No plan');
    case 'location':
      return vscode.l10n.t('No location');
    case 'renewal':
      return vscode.l10n.t('No renewal date');
    case 'label':
      return vscode.l10n.t('No label');
  }
}

// Phrases of their own, not lower-cased labels: German nouns keep their capitals.
export function sortWord(sort: Exclude<OrderSort, 'server'>): string {
  return sort === 'name' ? vscode.l10n.t('by name') : vscode.l10n.t('by state');
}

export function groupWord(by: Exclude<OrderGrouping, 'none'>): string {
  switch (by) {
    case 'state':
      return vscode.l10n.t('grouped by state');
    case 'plan':
      return vscode.l10n.t('grouped by plan');
    case 'location':
      return vscode.l10n.t('grouped by location');
    case 'renewal':
      return vscode.l10n.t('grouped by renewal month');
    case 'label':
      return vscode.l10n.t('grouped by your labels');
  }
}
