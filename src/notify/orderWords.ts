import * as vscode from 'vscode';
import { type Order, type OrderAction, type OrderState } from '../api/models';
import { plain } from '../util/serverText';
import { forLabel } from './inert';

export function stateLabel(state: OrderState): string {
  switch (state) {
    case 'running':
      return vscode.l10n.t('Running');
    case 'stopped':
      return vscode.l10n.t('Stopped');
    case 'busy':
      return vscode.l10n.t('Busy');
    case 'suspended':
      return vscode.l10n.t('Suspended');
    case 'unknown':
      return vscode.l10n.t('Unknown state');
  }
}

/** What the node says while an action runs. */
export function progressLabel(action: OrderAction): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('Starting…');
    case 'stop':
      return vscode.l10n.t('Stopping…');
    case 'restart':
      return vscode.l10n.t('Restarting…');
    case 'reinstall':
      return vscode.l10n.t('Reinstalling…');
  }
}

/** The progress title of an action on one server, named. */
export function progressTitle(action: OrderAction, name: string): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('Starting {0}', name);
    case 'stop':
      return vscode.l10n.t('Stopping {0}', name);
    case 'restart':
      return vscode.l10n.t('Restarting {0}', name);
    case 'reinstall':
      return vscode.l10n.t('Reinstalling {0}', name);
  }
}

/** An action that ended otherwise than expected, with the state the server is in now. */
export function notCompletedText(action: OrderAction, name: string, state: string): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('{0} did not start as expected. Its state is now: {1}.', name, state);
    case 'stop':
      return vscode.l10n.t('{0} did not stop as expected. Its state is now: {1}.', name, state);
    case 'restart':
      return vscode.l10n.t('{0} did not restart as expected. Its state is now: {1}.', name, state);
    case 'reinstall':
      return vscode.l10n.t('{0} was not reinstalled as expected. Its state is now: {1}.', name, state);
  }
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
  switch (action) {
    case 'start':
      return vscode.l10n.t('Start');
    case 'stop':
      return vscode.l10n.t('Stop');
    case 'restart':
      return vscode.l10n.t('Restart');
    case 'reinstall':
      return vscode.l10n.t('Reinstall');
  }
}

/**
 * The server's own word when it has one that says more than ours (e.g. "reinstalling"), else ours. Server text made
 * inert for a label, short: it shows in rows, pickers and messages.
 */
export function stateText(order: Order): string {
  const ours = stateLabel(order.state);
  if (!order.statusText || order.state === 'running' || order.state === 'stopped') return ours;
  const theirs = forLabel(plain(order.statusText).slice(0, 80).replace(/[_-]+/g, ' '), 40);
  // A word that only names our state ("suspended") says it in the user's language.
  if (!theirs || theirs.trim().toLowerCase() === order.state) return ours;
  return theirs.charAt(0).toUpperCase() + theirs.slice(1);
}
