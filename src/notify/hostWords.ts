import * as vscode from 'vscode';
import { type HostProblem } from '../util/hostCheck';

/** Why an address was refused, in a few words (the pick's description). */
export function hostProblemText(problem: HostProblem): string {
  switch (problem) {
    case 'empty':
      return vscode.l10n.t('empty');
    case 'option':
      return vscode.l10n.t('starts with "-": ssh would read it as an option');
    case 'notAscii':
      return vscode.l10n.t('characters outside plain ASCII');
    case 'notHost':
      return vscode.l10n.t('not a plain IP address or host name');
    case 'numericForm':
      return vscode.l10n.t('a legacy numeric IPv4 form');
    case 'unspecified':
      return vscode.l10n.t('the unspecified address');
    case 'embeddedIPv4':
      return vscode.l10n.t('an IPv6 form of an IPv4 address');
  }
}
