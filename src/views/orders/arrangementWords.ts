import * as vscode from 'vscode';
import { type OrderFilter, type OrderSort } from './filter';

/** What the filter pick shows. */
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

/** The filter in the view's description: "running: 3 of 12". */
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

/** The sort in the view's description, as a phrase of its own (a label is never lower-cased: German nouns keep theirs). */
export function sortWord(sort: Exclude<OrderSort, 'server'>): string {
  return sort === 'name' ? vscode.l10n.t('by name') : vscode.l10n.t('by state');
}
