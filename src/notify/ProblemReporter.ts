import * as vscode from 'vscode';
import { type Log } from '../log';
import { type Store } from '../store/Store';
import { type Failure } from '../store/types';
import { Disposable } from '../util/lifecycle';
import { forLabel, forMessage } from './inert';
import { notCompletedText, stateText, stateUnreadText } from './orderWords';
import { showReport, toReport } from './report';
import { inAccount, tell } from './show';

/** The account itself: the next steps of a notification pass it to the commands they run. */
export interface ReportingAccount {
  readonly store: Store;
  readonly baseUrl: string;
  shownName(): string | undefined;
}

// Every failure of a refresh the user asked for, only the first of an outage for background work: a dead server
// cannot flood the screen. Commands report their own failures (actions, Show Details).
export class ProblemReporter extends Disposable {
  private lastShown?: { text: string; at: number };

  constructor(
    private readonly account: ReportingAccount,
    private readonly log: Log,
  ) {
    super();
    const { store } = account;
    this.register(store.onDidFail((failure) => this.onFailure(failure)));
    this.register(
      store.onDidSettle(({ order, action, asExpected, outcome }) => {
        if (asExpected) {
          const said = vscode.l10n.t('{0}: {1}', forLabel(order.label, 60), stateText(order));
          vscode.window.setStatusBarMessage(`$(check) ${said}`, 5_000);
          return;
        }
        const label = forMessage(order.label, 80);
        const message =
          outcome === 'unreadable' ? stateUnreadText(action, label) : notCompletedText(action, label, stateText(order));
        void tell('warning', inAccount(account.shownName(), message));
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
    const report = toReport(failure.error, this.account.baseUrl);
    // One refresh reads several endpoints; the same outage must not show up once per endpoint.
    const now = Date.now();
    if (this.lastShown && this.lastShown.text === report.message && now - this.lastShown.at < 5_000) {
      this.log.debug(`not notifying twice: ${report.message}`);
      return;
    }
    this.lastShown = { text: report.message, at: now };
    this.log.info(`notified: ${report.message}`);
    void showReport(report, {
      account: this.account,
      name: this.account.shownName(),
      retry: () => vscode.commands.executeCommand('hostingAccount.refresh', this.account),
    });
  }
}
