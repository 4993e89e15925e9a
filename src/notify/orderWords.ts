import * as vscode from 'vscode';
import { type Order, type OrderAction, type OrderState } from '../api/models';
import { plain } from '../util/serverText';
import { forLabel } from './inert';

export function stateLabel(state: OrderState): string {
  return {
    running: vscode.l10n.t('Running'),
    stopped: vscode.l10n.t('Stopped'),
    busy: vscode.l10n.t('Busy'),
    suspended: vscode.l10n.t('Suspended'),
    unknown: vscode.l10n.t('Unknown state'),
  }[state];
}

export function progressLabel(action: OrderAction): string {
  return {
    start: vscode.l10n.t('Starting…'),
    stop: vscode.l10n.t('Stopping…'),
    restart: vscode.l10n.t('Restarting…'),
    reinstall: vscode.l10n.t('Reinstalling…'),
  }[action];
}

export function progressTitle(action: OrderAction, name: string): string {
  return {
    start: vscode.l10n.t('Starting {0}', name),
    stop: vscode.l10n.t('Stopping {0}', name),
    restart: vscode.l10n.t('Restarting {0}', name),
    reinstall: vscode.l10n.t('Reinstalling {0}', name),
  }[action];
}

export function notCompletedText(action: OrderAction, name: string, state: string): string {
  return {
    start: vscode.l10n.t('{0} did not start as expected. Its state is now: {1}.', name, state),
    stop: vscode.l10n.t('{0} did not stop as expected. Its state is now: {1}.', name, state),
    restart: vscode.l10n.t('{0} did not restart as expected. Its state is now: {1}.', name, state),
    reinstall: vscode.l10n.t('{0} was not reinstalled as expected. Its state is now: {1}.', name, state),
  }[action];
}

/** The server took the action, but what it said of the server afterwards could not be read. */
export function stateUnreadText(action: OrderAction, name: string): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('Start sent to {0}; its state could not be read, so it is no longer followed.', name);
    case 'stop':
      return vscode.l10n.t('Stop sent to {0}; its state could not be read, so it is no longer followed.', name);
    case 'restart':
      return vscode.l10n.t('Restart sent to {0}; its state could not be read, so it is no longer followed.', name);
    case 'reinstall':
      return vscode.l10n.t('Reinstall sent to {0}; its state could not be read, so it is no longer followed.', name);
  }
}

export function actionTitle(action: OrderAction): string {
  return {
    start: vscode.l10n.t('Start'),
    stop: vscode.l10n.t('Stop'),
    restart: vscode.l10n.t('Restart'),
    reinstall: vscode.l10n.t('Reinstall'),
  }[action];
}

/** The server's own word when it says more than ours (e.g. "reinstalling"), else ours. */
export function stateText(order: Order): string {
  const ours = stateLabel(order.state);
  if (!order.statusText || order.state === 'running' || order.state === 'stopped') return ours;
  const theirs = forLabel(plain(order.statusText).slice(0, 80).replace(/[_-]+/g, ' '), 40);
  // A word that only names our state ("suspended") says it in the user's language.
  if (!theirs || theirs.trim().toLowerCase() === order.state) return ours;
  return theirs.charAt(0).toUpperCase() + theirs.slice(1);
}
