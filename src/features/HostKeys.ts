import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { type Order } from '../api/models';
import { forLabel, forLog, forMessage } from '../notify/inert';
import { ask, confirm, inAccount, tell } from '../notify/show';
import { addressesOf } from '../ssh/addresses';
import { type SshHooks } from '../ssh/hooks';
import { forgetHostKeys, forgetPlan, type ForgetPlan } from '../ssh/knownHosts';
import {
  forgetAccount,
  noteConnected,
  noteReinstalled,
  noteSettled,
  readReinstalls,
  reinstalledAt,
  REINSTALLS_KEY,
  type StoredReinstalls,
} from '../ssh/reinstalls';
import { plain } from '../util/serverText';
import { Disposable } from '../util/lifecycle';
import { type OrdersTree } from '../views/orders/OrdersTree';

interface Watched {
  readonly account: Account;
  readonly order: Order;
  readonly port: number;
  /** Its old host keys were forgotten just before: a 255 is then no refused old key. */
  readonly afterForgetting: boolean;
}

const STATUS_LOOKED_AT = 64;

const FORGOTTEN_FRESH_MS = 10 * 60_000;

// An SSH terminal's stderr cannot be read: a 255 is worded as what may have happened, and a changed key without a
// reinstall may be an attack. The offer names every host it forgets.
export class HostKeys extends Disposable {
  private readonly terminals = new Map<vscode.Terminal, Watched>();
  private readonly reinstalling = new Set<string>();
  /** Until the next SSH terminal to them. */
  private readonly forgotten = new Map<string, number>();
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly model: AccountModel,
    private readonly state: vscode.Memento,
    private readonly hooks: SshHooks,
    private readonly orders: OrdersTree,
  ) {
    super();
    this.register(
      model.onDidSettle(({ account, value: { order, action } }) => {
        // A new reinstall brings new keys again: what was forgotten before it says nothing of the next connection.
        if (action === 'reinstall') this.forgotten.delete(serverKey(account, order.id));
        void this.update(account, (stored, now) => noteSettled(stored, account.id, { orderId: order.id, action }, now));
      }),
    );
    this.register(model.onDidChangeOrders(({ account, value }) => this.lookForReinstalls(account, value.ids)));
    this.register(model.onDidChange(() => this.forgetRemovedAccounts()));
    this.register(vscode.window.onDidCloseTerminal((terminal) => void this.closed(terminal)));
    this.register({ dispose: () => this.terminals.clear() });
  }

  private reinstalledAt(account: Account, orderId: string): number | undefined {
    return reinstalledAt(this.stored(), account.id, orderId);
  }

  /** `cancel` when the user closed the question, or forgetting failed (they were told why). */
  async beforeConnect(account: Account, order: Order, port: number): Promise<'go' | 'cancel'> {
    const at = this.reinstalledAt(account, order.id);
    if (at === undefined) return 'go';
    const plan = planFor(order);
    if (!plan.hosts.length) return 'go';
    const name = forMessage(order.label, 80);
    const forget = vscode.l10n.t('Forget Old Host Keys');
    const keep = vscode.l10n.t('Connect Without Forgetting');
    const answer = await ask(
      inAccount(account.shownName(), vscode.l10n.t('{0} was reinstalled since you last connected to it.', name)),
      vscode.l10n.t(
        'It was reinstalled on {0}. A reinstalled server has new host keys, so ssh refuses the old ones this machine remembers for it ("remote host identification has changed"). Forget the old host keys of {1} (ssh-keygen -R) before connecting?',
        new Date(at).toLocaleString(vscode.env.language),
        hostList(plan),
      ),
      forget,
      keep,
    );
    if (answer === undefined) return 'cancel';
    if (answer === forget && !(await this.forget(account, order, plan, port))) return 'cancel';
    return 'go';
  }

  watch(terminal: vscode.Terminal, account: Account, order: Order, port: number): void {
    const key = serverKey(account, order.id);
    const forgotAt = this.forgotten.get(key);
    this.forgotten.delete(key);
    const afterForgetting = forgotAt !== undefined && Date.now() - forgotAt < FORGOTTEN_FRESH_MS;
    this.terminals.set(terminal, { account, order, port, afterForgetting });
  }

  private async closed(terminal: vscode.Terminal): Promise<void> {
    const watched = this.terminals.get(terminal);
    if (!watched) return;
    this.terminals.delete(terminal);
    const account = this.model.accountOf(watched.account);
    if (!account) return;
    const { order, port } = watched;
    const code = terminal.exitStatus?.code;
    const known = this.reinstalledAt(account, order.id) !== undefined;
    // A session that ended well got past the host key: the reinstall is dealt with.
    if (code === 0 && known) await this.update(account, (stored) => noteConnected(stored, account.id, order.id));
    if (code !== 255) return;
    const name = forMessage(order.label, 80);
    if (watched.afterForgetting) {
      // With the old keys gone ssh cannot have refused one of them; offering to forget again would mislead.
      void tell(
        'warning',
        inAccount(
          account.shownName(),
          vscode.l10n.t(
            'SSH to {0} ended with an error. Its old host keys were forgotten just before, so this is not about them: the server may not accept connections yet (it may still be starting after the reinstall). The terminal shows what ssh said.',
            name,
          ),
        ),
      );
      return;
    }
    const plan = planFor(account.store.orders.get(order.id) ?? order);
    const forget = vscode.l10n.t('Forget Old Host Keys…');
    let message: string;
    if (!plan.hosts.length) {
      message = vscode.l10n.t(
        'SSH to {0} ended with an error. None of its addresses is one whose host key is forgotten here (only its own IP addresses and host name are). The terminal shows what ssh said.',
        name,
      );
    } else if (known) {
      message = vscode.l10n.t(
        'SSH to {0} ended with an error. The server was reinstalled since you last connected: if ssh refused its new host key, forget the old ones of {1} and connect again.',
        name,
        hostList(plan),
      );
    } else {
      message = vscode.l10n.t(
        'SSH to {0} ended with an error. If ssh said the remote host identification has changed and this server was reinstalled, its old host key can be forgotten. If it was not reinstalled, keep the key: someone may be between you and the server.',
        name,
      );
    }
    const offer = plan.hosts.length ? [forget] : [];
    if ((await tell('warning', inAccount(account.shownName(), message), ...offer)) !== forget) return;
    if (!known) {
      const sure = await confirm(
        vscode.l10n.t('Forget the old host keys of {0}?', name),
        vscode.l10n.t(
          "Do this only if the server was reinstalled, for example from your provider's panel. ssh-keygen -R removes the keys this machine knows for {0}, and the next connection accepts whatever key the server shows.",
          hostList(plan),
        ),
        vscode.l10n.t('Forget Old Host Keys'),
      );
      if (!sure) return;
    }
    if (!(await this.forget(account, order, plan, port))) return;
    const again = vscode.l10n.t('Connect Again');
    const answer = await tell('info', vscode.l10n.t('The old host keys of {0} are forgotten.', name), again);
    const node = this.orders.nodeFor(account, order.id);
    if (answer === again && node) await vscode.commands.executeCommand('hostingAccount.order.connectSsh', node);
  }

  /** Exactly the hosts the user was shown. */
  private async forget(account: Account, order: Order, plan: ForgetPlan, port: number): Promise<boolean> {
    const log = account.log.scoped('ssh');
    const id = forLog(order.id, 80);
    const tool = this.hooks.sshKeygen;
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Forgetting the old host keys of {0}…', forLabel(order.label, 60)),
      },
      () =>
        forgetHostKeys(plan.hosts, port, {
          sshKeygen: tool?.file,
          env: tool?.env,
          knownHostsFile: tool?.knownHostsFile,
        }),
    );
    const name = forMessage(order.label, 80);
    switch (outcome.kind) {
      case 'notRun':
        log.warn(`order ${id}: ssh-keygen could not be run (${outcome.problem})`);
        void tell(
          'error',
          outcome.problem === 'notFound'
            ? vscode.l10n.t(
                'ssh-keygen was not found, so the old host keys of {0} were not forgotten. Install the OpenSSH client, or remove its lines from your known_hosts file.',
                name,
              )
            : vscode.l10n.t('ssh-keygen could not be started, so the old host keys of {0} were not forgotten.', name),
        );
        return false;
      case 'done': {
        const removed = outcome.removed.map((entry) => `${forLog(entry.host, 300)} (line ${entry.line})`);
        log.info(
          `order ${id}: ssh-keygen -R on port ${port}: ${removed.length ? `removed ${removed.join(', ')}` : 'no known host key to remove'}${outcome.failedRuns ? `; ${outcome.failedRuns} run(s) failed` : ''}`,
        );
        await this.update(account, (stored) => noteConnected(stored, account.id, order.id));
        this.forgotten.set(serverKey(account, order.id), Date.now());
        if (outcome.failedRuns) {
          void tell(
            'warning',
            vscode.l10n.t('ssh-keygen did not finish for every address of {0}; the log says what it removed.', name),
          );
        }
        return true;
      }
    }
  }

  /** A reinstall made elsewhere shows in the server's own status word while it runs. */
  private lookForReinstalls(account: Account, ids: readonly string[] | undefined): void {
    const { store } = account;
    const orders = ids ? ids.map((id) => store.orders.get(id)) : store.orders.all;
    for (const order of orders) {
      if (!order) continue;
      const key = serverKey(account, order.id);
      const status = order.statusText === undefined ? '' : plain(order.statusText).slice(0, STATUS_LOOKED_AT);
      if (order.state !== 'busy' || !status.toLowerCase().includes('reinstall')) {
        this.reinstalling.delete(key);
        continue;
      }
      // Ours is noted when it settles.
      if (store.pending(order.id) !== undefined || this.reinstalling.has(key)) continue;
      this.reinstalling.add(key);
      this.forgotten.delete(key);
      void this.update(account, (stored, now) => noteReinstalled(stored, account.id, order.id, now));
    }
  }

  private forgetRemovedAccounts(): void {
    const live = new Set(this.model.accounts.map((account) => account.id));
    const gone = [...new Set(this.stored().servers.map((entry) => entry.accountId))].filter((id) => !live.has(id));
    if (!gone.length) return;
    void this.write((stored) => gone.reduce((next, id) => forgetAccount(next, id), stored));
  }

  private stored(): StoredReinstalls {
    return readReinstalls(this.state.get(REINSTALLS_KEY));
  }

  private update(account: Account, change: (stored: StoredReinstalls, now: number) => StoredReinstalls): Promise<void> {
    return this.write((stored) => change(stored, Date.now())).catch((error: unknown) => {
      account.log
        .scoped('ssh')
        .warn(`could not remember a reinstall: ${error instanceof Error ? error.name : 'error'}`);
    });
  }

  private write(change: (stored: StoredReinstalls) => StoredReinstalls): Promise<void> {
    const next = this.writes.then(async () => {
      const before = this.stored();
      const after = change(before);
      if (after !== before) await this.state.update(REINSTALLS_KEY, after);
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}

function serverKey(account: Account, orderId: string): string {
  return `${account.id}\n${orderId}`;
}

function planFor(order: Order): ForgetPlan {
  return forgetPlan(addressesOf(order), order.address);
}

function hostList(plan: ForgetPlan): string {
  const hosts = plan.hosts.map((host) => forMessage(host, 80)).join(', ');
  if (!plan.left) return hosts;
  return vscode.l10n.t('{0}, but not the {1} other addresses the server lists', hosts, plan.left);
}
