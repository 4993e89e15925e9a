import * as vscode from 'vscode';
import { type Store } from '../store/Store';
import { type Failure } from '../store/types';
import { type Log } from '../log';
import { Disposable } from '../util/lifecycle';
import { showReport, toReport } from '../notify/report';
import { actionTitle, stateText } from './orders/orderStrings';
import { noIcons, noLinks } from './text';

/**
 * Turns failures into notifications: every failure of a refresh the user asked for, but only the first of an outage
 * for background work, so a dead server cannot flood the screen. Commands report their own failures (actions, Show
 * Details) through the command wrapper.
 */
export class ProblemReporter extends Disposable {
  private lastShown?: { text: string; at: number };

  constructor(
    store: Store,
    private readonly baseUrl: () => string,
    private readonly retry: () => unknown,
    private readonly log: Log,
  ) {
    super();
    this.register(store.onDidFail((failure) => this.onFailure(failure)));
    this.register(
      store.onDidSettle(({ order, action, asExpected }) => {
        if (asExpected) {
          vscode.window.setStatusBarMessage(`$(check) ${noIcons(order.label)}: ${stateText(order)}`, 5_000);
        } else {
          void vscode.window.showWarningMessage(
            noLinks(
              vscode.l10n.t(
                '{0} did not complete on {1}, which is now: {2}.',
                actionTitle(action),
                order.label,
                stateText(order),
              ),
            ),
          );
        }
      }),
    );
  }

  private onFailure(failure: Failure): void {
    if (failure.kind === 'action' || (failure.kind === 'details' && failure.userInitiated)) return;
    if (failure.error.kind === 'noKey') return;
    if (!failure.userInitiated && !failure.firstInEpisode) {
      this.log.debug(`not notifying again during this outage: ${failure.kind}: ${failure.error.kind}`);
      return;
    }
    const report = toReport(failure.error, this.baseUrl());
    // One refresh reads several endpoints; the same outage must not show up once per endpoint.
    const now = Date.now();
    if (this.lastShown && this.lastShown.text === report.message && now - this.lastShown.at < 5_000) {
      this.log.debug(`not notifying twice: ${report.message}`);
      return;
    }
    this.lastShown = { text: report.message, at: now };
    this.log.info(`notified: ${report.message}`);
    void showReport(report, this.retry);
  }
}
