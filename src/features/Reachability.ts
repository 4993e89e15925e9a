import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Order } from '../api/models';
import { forLog, forMessage } from '../notify/inert';
import { inAccount, tell } from '../notify/show';
import { addressesOf } from '../ssh/addresses';
import { readChoice } from '../ssh/choices';
import { checkHost, isSafePort } from '../util/hostCheck';
import { type SshHooks } from '../ssh/hooks';
import { PROBE_TIMING, probeUntilOpen } from '../ssh/probe';
import { readSshSettings } from '../ssh/sshSettings';
import { Disposable, toDisposable } from '../util/lifecycle';
import { type OrdersTree } from '../views/orders/OrdersTree';

/** After an action settles into running, waits for the SSH port to open and says so once; one probe per order. */
export class Reachability extends Disposable {
  private readonly probes = new Map<string, AbortController>();

  constructor(
    model: AccountModel,
    private readonly tree: OrdersTree,
    private readonly hooks: SshHooks,
  ) {
    super();
    this.register(
      model.onDidSettle(({ account, value: { order, action, asExpected } }) => {
        if (action !== 'stop' && asExpected && order.state === 'running') void this.probe(account, order);
      }),
    );
    this.register(
      model.onDidChangeState((account) => {
        // Another key or server (the store starts over through 'loading'): the old orders are not ours to report.
        const { state } = account.store;
        if (state === 'loading' || state === 'noKey' || state === 'noBaseUrl' || state === 'badBaseUrl') {
          this.stop(account);
        }
      }),
    );
    this.register(toDisposable(() => this.probes.forEach((controller) => controller.abort())));
  }

  private stop(account: Account): void {
    for (const [key, controller] of this.probes) {
      if (!key.startsWith(`${account.id} `)) continue;
      controller.abort();
      this.probes.delete(key);
    }
  }

  private async probe(account: Account, order: Order): Promise<void> {
    const log = account.log.scoped('reachability');
    const settings = readSshSettings();
    if (!settings.notifyWhenReachable) return;
    const addresses = addressesOf(order);
    const chosen = readChoice(account.choices, order.id).address;
    const address = chosen && addresses.includes(chosen) ? chosen : addresses[0];
    const host = address === undefined ? undefined : checkHost(address);
    const id = forLog(order.id, 80);
    if (!host?.ok || !isSafePort(settings.port)) {
      log.info(`order ${id}: no plain address and port to probe`);
      return;
    }
    const key = `${account.id} ${order.id}`;
    this.probes.get(key)?.abort();
    const controller = new AbortController();
    this.probes.set(key, controller);
    const timing = this.hooks.probeTiming ?? PROBE_TIMING;
    log.info(`order ${id}: waiting for ${host.host} port ${settings.port} to open`);
    const outcome = await probeUntilOpen(host.host, settings.port, timing, controller.signal);
    if (this.probes.get(key) === controller) this.probes.delete(key);
    if (outcome.result === 'cancelled') return;
    if (outcome.result === 'gaveUp') {
      const seconds = Math.round(timing.giveUpMs / 1000);
      log.info(
        `order ${id}: ${host.host} port ${settings.port} still closed after ${outcome.attempts} attempts in ${seconds} s; stopped waiting`,
      );
      return;
    }
    log.info(`order ${id}: ${host.host} port ${settings.port} is open`);
    const connect = vscode.l10n.t('Connect via SSH');
    const remote = vscode.l10n.t('Open in Remote-SSH');
    const up = vscode.l10n.t('{0} is up', forMessage(order.label, 80));
    const answer = await tell('info', inAccount(account.shownName(), up), connect, remote);
    // The command acts on this very order's node, or not at all.
    const node = this.tree.nodeFor(account, order.id);
    if (!node || !answer) return;
    if (answer === connect) await vscode.commands.executeCommand('hostingAccount.order.connectSsh', node);
    else await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', node);
  }
}
