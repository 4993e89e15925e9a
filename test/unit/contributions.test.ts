import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORDER_ACTIONS, type OrderState } from '../../src/api/models';
import { COMMAND_IDS } from '../../src/commands/ids';
import { INVOICE_CONTEXT_VALUES } from '../../src/views/invoices/invoicePresentation';
import { actionsFor, ORDER_CONTEXT_VALUES, orderLook } from '../../src/views/orders/orderPresentation';

interface MenuEntry { command: string; when?: string; group?: string }
interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    menus: Record<string, MenuEntry[]>;
    viewsWelcome: Array<{ view: string; contents: string; when: string }>;
    configuration: { properties: Record<string, { markdownDescription?: string; scope?: string }> };
  };
  activationEvents: string[];
}

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const itemMenus = manifest.contributes.menus['view/item/context'] ?? [];

function viewItemRegex(when: string | undefined): RegExp | undefined {
  const match = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when ?? '');
  return match?.[1] ? new RegExp(match[1]) : undefined;
}

describe('package.json contributions (unit)', () => {
  it('resolves every %placeholder% from package.nls.json', () => {
    const missing = [...JSON.stringify(manifest).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]).filter((k) => !(k! in nls));
    assert.deepEqual(missing, []);
  });

  it('registers exactly the contributed commands', () => {
    assert.deepEqual([...COMMAND_IDS].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  });

  it('gives every command a title and the Hosting category', () => {
    for (const command of manifest.contributes.commands) {
      assert.ok(command.title, command.command);
      assert.equal(command.category, '%category%', command.command);
    }
  });

  it('gives every setting a markdownDescription, and keeps where the key goes out of workspace reach', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const [name, property] of Object.entries(properties)) assert.ok(property.markdownDescription, name);
    for (const name of ['hostingAccount.baseUrl', 'hostingAccount.websiteUrl', 'hostingAccount.maxRequestsPerMinute',
      'hostingAccount.confirmStopAndRestart']) {
      assert.equal(properties[name]?.scope, 'application', name);
    }
  });

  it('activates implicitly, plus onStartupFinished for the status bar', () => {
    assert.deepEqual(manifest.activationEvents, ['onStartupFinished']);
  });

  it('matches every viewItem regex of a menu to a contextValue the views produce', () => {
    const produced = [...ORDER_CONTEXT_VALUES, ...INVOICE_CONTEXT_VALUES];
    for (const entry of itemMenus) {
      const regex = viewItemRegex(entry.when);
      assert.ok(regex, `${entry.command} has no viewItem clause`);
      assert.ok(produced.some((value) => regex.test(value)), `${entry.command}: ${entry.when} matches nothing`);
    }
  });

  it('offers each order action in the context menu exactly on the states it fits', () => {
    const states: OrderState[] = ['running', 'stopped', 'busy', 'suspended', 'unknown'];
    for (const action of ORDER_ACTIONS) {
      const entries = itemMenus.filter((e) => e.command === `hostingAccount.order.${action}` && !e.group?.startsWith('inline'));
      assert.equal(entries.length, 1, action);
      const regex = viewItemRegex(entries[0]?.when);
      for (const state of states) {
        const offered = regex?.test(orderLook(state).contextValue) ?? false;
        assert.equal(offered, actionsFor(state).includes(action), `${action} on ${state}`);
      }
      assert.equal(regex?.test(orderLook('running', 'stop').contextValue), false, `${action} while an action runs`);
    }
  });

  it('puts Reinstall last, in a group of its own', () => {
    const reinstall = itemMenus.find((e) => e.command === 'hostingAccount.order.reinstall');
    const groups = itemMenus.filter((e) => e.command.startsWith('hostingAccount.order.')).map((e) => e.group ?? '');
    assert.match(reinstall?.group ?? '', /^9_destructive/);
    assert.equal(groups.filter((g) => g.startsWith('9_')).length, 1);
    assert.ok(groups.filter((g) => !g.startsWith('inline')).every((g) => g <= (reinstall?.group ?? '')));
  });

  it('keeps the commands that need a key out of the palette while signed out, and Open Invoice out of it always', () => {
    const palette = manifest.contributes.menus.commandPalette ?? [];
    /** The palette's `when` for a command, evaluated for one connection state (the only key these clauses read). */
    const shownIn = (command: string, state: string): boolean => {
      const when = palette.find((entry) => entry.command === command)?.when;
      if (when === undefined) return true;
      const equal = /^hostingAccount\.state == (\w+)$/.exec(when);
      if (equal) return equal[1] === state;
      const pattern = /^hostingAccount\.state =~ \/(.+)\/$/.exec(when);
      if (pattern?.[1]) return new RegExp(pattern[1]).test(state);
      return when !== 'false';
    };
    const needKey = ['hostingAccount.refresh', 'hostingAccount.showAccount', ...ORDER_ACTIONS.map((a) => `hostingAccount.order.${a}`),
      'hostingAccount.order.showDetails', 'hostingAccount.order.copyId'];
    for (const command of needKey) {
      for (const state of ['noBaseUrl', 'badBaseUrl', 'noKey']) assert.equal(shownIn(command, state), false, `${command} in ${state}`);
      assert.equal(shownIn(command, 'ready'), true, `${command} when ready`);
    }
    assert.equal(shownIn('hostingAccount.refresh', 'unreachable'), true, 'Refresh is the way out of an outage');
    assert.equal(shownIn('hostingAccount.invoice.open', 'ready'), false);
    assert.equal(shownIn('hostingAccount.showInvoices', 'noKey'), true, 'Show Invoices works signed out too (its welcome says why)');
  });

  it('has a welcome for every connection state in the Orders view', () => {
    const whens = manifest.contributes.viewsWelcome.filter((w) => w.view === 'hostingAccount.orders').map((w) => w.when).join(' ');
    for (const state of ['noBaseUrl', 'badBaseUrl', 'noKey', 'invalidKey', 'unreachable', 'loading', 'ready']) {
      assert.ok(whens.includes(`hostingAccount.state == ${state}`), state);
    }
  });
});
