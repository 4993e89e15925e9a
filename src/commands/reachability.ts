import * as vscode from 'vscode';
import { type Order } from '../api/models';
import { type Store } from '../store/Store';
import { readChoice } from '../ssh/choices';
import { checkHost, isSafePort } from '../ssh/hostCheck';
import { PROBE_TIMING, probeUntilOpen } from '../ssh/probe';
import { readSshSettings } from '../ssh/sshSettings';
import { noIcons, noLinks } from '../views/text';
import { type CommandContext } from './CommandContext';
import { addressesOf } from './sshTarget';

/** Stores already watched: the commands bundle loads once, but the subscription must not double up. */
const watched = new WeakSet<Store>();
/** One probe per order; a new action on the order replaces the probe of the last one. */
const probes = new Map<string, AbortController>();

/**
 * After Start, Restart or Reinstall settles into running, waits for the order's SSH port to open, then says so once
 * with the next steps. Set up when the first command runs: no action can settle before one was sent.
 */
export function watchReachability(ctx: CommandContext): void {
  if (watched.has(ctx.store)) return;
  watched.add(ctx.store);
  ctx.store.onDidSettle(({ order, action, asExpected }) => {
    if (action !== 'stop' && asExpected && order.state === 'running') void probe(ctx, order);
  });
  ctx.store.onDidChangeState((state) => {
    // Another key or server (the store starts over, through 'loading'): the old one's orders are not ours to report.
    if (state === 'loading' || state === 'noKey' || state === 'noBaseUrl' || state === 'badBaseUrl') stopProbes();
  });
}

export function stopProbes(): void {
  for (const controller of probes.values()) controller.abort();
  probes.clear();
}

/** The address the user chose last for the order when it still has it, else its main address. */
function probeAddress(ctx: CommandContext, order: Order): string | undefined {
  const addresses = addressesOf(order);
  const chosen = readChoice(ctx.globalState, order.id).address;
  return chosen && addresses.includes(chosen) ? chosen : addresses[0];
}

async function probe(ctx: CommandContext, order: Order): Promise<void> {
  const log = ctx.log.scoped('reachability');
  const settings = readSshSettings();
  if (!settings.notifyWhenReachable) return;
  const address = probeAddress(ctx, order);
  const host = address === undefined ? undefined : checkHost(address);
  if (!host?.ok || !isSafePort(settings.port)) {
    log.info(`order ${order.id}: no plain address and port to probe`);
    return;
  }
  probes.get(order.id)?.abort();
  const controller = new AbortController();
  probes.set(order.id, controller);
  const timing = ctx.ssh.probeTiming ?? PROBE_TIMING;
  log.info(`order ${order.id}: waiting for ${host.host} port ${settings.port} to open`);
  const outcome = await probeUntilOpen(host.host, settings.port, timing, controller.signal);
  if (probes.get(order.id) === controller) probes.delete(order.id);
  if (outcome.result === 'cancelled') return;
  if (outcome.result === 'gaveUp') {
    log.info(
      `order ${order.id}: ${host.host} port ${settings.port} still closed after ${outcome.attempts} attempts in ${Math.round(timing.giveUpMs / 1000)} s; stopped waiting`,
    );
    return;
  }
  log.info(`order ${order.id}: ${host.host} port ${settings.port} is open`);
  const connect = vscode.l10n.t('Connect via SSH');
  const remote = vscode.l10n.t('Open in Remote-SSH');
  const label = noLinks(noIcons(order.label));
  const answer = await vscode.window.showInformationMessage(vscode.l10n.t('{0} is up', label), connect, remote);
  if (answer === connect) await vscode.commands.executeCommand('hostingAccount.order.connectSsh', order.id);
  else if (answer === remote) await vscode.commands.executeCommand('hostingAccount.order.openRemoteSsh', order.id);
}
