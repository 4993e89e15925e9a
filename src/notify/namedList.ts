import * as vscode from 'vscode';

/** Names already quoted for their sink. */
export function namedList(named: readonly string[], total: number): string {
  const list = named.join(', ');
  return total > named.length ? vscode.l10n.t('{0} and {1} more', list, total - named.length) : list;
}
