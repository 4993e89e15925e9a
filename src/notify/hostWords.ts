import * as vscode from 'vscode';
import { type HostProblem } from '../util/hostCheck';

export function hostProblemText(problem: HostProblem): string {
  return {
    empty: vscode.l10n.t('empty'),
    option: vscode.l10n.t('starts with "-": ssh would read it as an option'),
    notAscii: vscode.l10n.t('characters outside plain ASCII'),
    notHost: vscode.l10n.t('not a plain IP address or host name'),
    numericForm: vscode.l10n.t('a legacy numeric IPv4 form'),
    unspecified: vscode.l10n.t('the unspecified address'),
    embeddedIPv4: vscode.l10n.t('an IPv6 form of an IPv4 address'),
  }[problem];
}
