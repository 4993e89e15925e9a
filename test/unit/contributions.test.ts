import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCOUNT_CONTEXT_VALUES } from '../../src/views/accountContextValues';
import { ORDER_ACTIONS, type OrderState } from '../../src/api/models';
import { COMMAND_IDS } from '../../src/commands/ids';
import { INVOICE_CONTEXT_VALUES } from '../../src/views/invoices/invoicePresentation';
import {
  actionsFor,
  ORDER_CONTEXT_VALUES,
  ORDER_GROUP_CONTEXT_VALUE,
  orderItemContextValues,
  orderLook,
  withAddress,
  withMarks,
} from '../../src/views/orders/orderPresentation';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    menus: Record<string, MenuEntry[]>;
    viewsWelcome: Array<{ view: string; contents: string; when: string }>;
    configuration: { properties: Record<string, { markdownDescription?: string; scope?: string }> };
    views: Record<string, Array<{ id: string }>>;
    walkthroughs?: Walkthrough[];
  };
  activationEvents: string[];
  extensionKind?: string[];
}

interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: Array<{
    id: string;
    title: string;
    description: string;
    media: { svg?: string; altText?: string };
    completionEvents: string[];
  }>;
}

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const itemMenus = manifest.contributes.menus['view/item/context'] ?? [];
/** Every mark combination the user can give a server: the menus must read the state past them. */
const MARKS = [{}, { protected: true }, { pinned: true }, { protected: true, pinned: true }] as const;
const MARKED_ORDER_VALUES = orderItemContextValues().filter((value) => value !== ORDER_GROUP_CONTEXT_VALUE);
const onGroup = (entry: MenuEntry): boolean => viewItemRegex(entry.when)?.test(ORDER_GROUP_CONTEXT_VALUE) ?? false;

function viewItemRegex(when: string | undefined): RegExp | undefined {
  const match = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when ?? '');
  return match?.[1] ? new RegExp(match[1]) : undefined;
}

describe('package.json contributions (unit)', () => {
  it('resolves every %placeholder% from package.nls.json', () => {
    const missing = [...JSON.stringify(manifest).matchAll(/"%([^%"]+)%"/g)]
      .map((m) => m[1])
      .filter((k) => !(k! in nls));
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
    for (const name of [
      'hostingAccount.baseUrl',
      'hostingAccount.websiteUrl',
      'hostingAccount.maxRequestsPerMinute',
      'hostingAccount.confirmStopAndRestart',
    ]) {
      assert.equal(properties[name]?.scope, 'application', name);
    }
  });

  it('activates implicitly, plus onStartupFinished for the status bar', () => {
    assert.deepEqual(manifest.activationEvents, ['onStartupFinished']);
  });

  it('matches every viewItem regex of a menu to a contextValue the views produce', () => {
    const produced = [...orderItemContextValues(), ...INVOICE_CONTEXT_VALUES, ...ACCOUNT_CONTEXT_VALUES];
    for (const entry of itemMenus) {
      const regex = viewItemRegex(entry.when);
      assert.ok(regex, `${entry.command} has no viewItem clause`);
      assert.ok(
        produced.some((value) => regex.test(value)),
        `${entry.command}: ${entry.when} matches nothing`,
      );
    }
  });

  it('offers the account actions on account rows of both views, Remove only on the accounts after the first', () => {
    const offered = (command: string, value: string, view: string): boolean =>
      itemMenus.some(
        (e) =>
          e.command === command &&
          !e.group?.startsWith('inline') &&
          (viewItemRegex(e.when)?.test(value) ?? false) &&
          new RegExp(/view =~ \/(.+?)\//.exec(e.when ?? '')?.[1] ?? '^$').test(view),
      );
    for (const view of ['hostingAccount.orders', 'hostingAccount.invoices']) {
      for (const value of ACCOUNT_CONTEXT_VALUES) {
        const added = value.endsWith('.added');
        assert.equal(offered('hostingAccount.account.rename', value, view), true, `rename on ${value}`);
        assert.equal(offered('hostingAccount.setApiKey', value, view), true, `set key on ${value}`);
        assert.equal(offered('hostingAccount.account.remove', value, view), added, `remove on ${value}`);
        assert.equal(offered('hostingAccount.refresh', value, view), !value.includes('noKey'), `refresh on ${value}`);
      }
    }
    // Never on an order or an invoice, nor in another view.
    for (const value of [...ORDER_CONTEXT_VALUES, ...INVOICE_CONTEXT_VALUES]) {
      assert.equal(offered('hostingAccount.account.rename', value, 'hostingAccount.orders'), false, value);
    }
    assert.equal(offered('hostingAccount.account.rename', ACCOUNT_CONTEXT_VALUES[0]!, 'explorer'), false);
  });

  it('offers each order action in the context menu exactly on the states it fits', () => {
    const states: OrderState[] = ['running', 'stopped', 'busy', 'suspended', 'unknown'];
    for (const action of ORDER_ACTIONS) {
      const entries = itemMenus.filter(
        (e) => e.command === `hostingAccount.order.${action}` && !e.group?.startsWith('inline') && !onGroup(e),
      );
      assert.equal(entries.length, 1, action);
      const regex = viewItemRegex(entries[0]?.when);
      for (const state of states) {
        // With or without an address: the marker for the SSH items changes nothing for the power actions.
        for (const value of [
          orderLook(state).contextValue,
          withAddress(orderLook(state).contextValue, { address: '203.0.113.5' }),
        ].flatMap((plain) => MARKS.map((mark) => withMarks(plain, mark)))) {
          const offered = regex?.test(value) ?? false;
          assert.equal(offered, actionsFor(state).includes(action), `${action} on ${value}`);
        }
      }
      assert.equal(regex?.test(orderLook('running', 'stop').contextValue), false, `${action} while an action runs`);
    }
  });

  it('offers Protect or Unprotect and Pin or Unpin by the mark a server has, and the bulk actions on a group', () => {
    const offered = (command: string, value: string): boolean =>
      itemMenus.some((e) => e.command === command && (viewItemRegex(e.when)?.test(value) ?? false));
    for (const value of MARKED_ORDER_VALUES) {
      const isProtected = value.includes('.protected');
      const pinned = value.includes('.pinned');
      assert.equal(offered('hostingAccount.order.protect', value), !isProtected, value);
      assert.equal(offered('hostingAccount.order.unprotect', value), isProtected, value);
      assert.equal(offered('hostingAccount.order.pin', value), !pinned, value);
      assert.equal(offered('hostingAccount.order.unpin', value), pinned, value);
      assert.ok(offered('hostingAccount.order.setLabel', value), value);
    }
    for (const action of ORDER_ACTIONS) {
      const command = `hostingAccount.order.${action}`;
      assert.equal(offered(command, ORDER_GROUP_CONTEXT_VALUE), action !== 'reinstall', `${action} on a group`);
    }
    assert.equal(offered('hostingAccount.order.protect', ORDER_GROUP_CONTEXT_VALUE), false);
  });

  it('contributes the hosting task type without reinstall, and declares what Restricted Mode leaves out', () => {
    const raw = manifest as unknown as {
      capabilities: { untrustedWorkspaces: { supported: unknown; description?: string } };
      contributes: {
        taskDefinitions: Array<{ type: string; required: string[]; properties: Record<string, { enum?: string[] }> }>;
      };
    };
    const [task] = raw.contributes.taskDefinitions;
    assert.equal(task?.type, 'hosting');
    assert.deepEqual(task?.required, ['action']);
    assert.deepEqual(task?.properties.action?.enum, ['start', 'stop', 'restart']);
    assert.deepEqual(Object.keys(task?.properties ?? {}), ['action', 'server', 'account', 'timeout']);
    assert.equal(raw.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(raw.capabilities.untrustedWorkspaces.description);
  });

  it("runs on the UI side first, so in a remote window the key and the API calls stay on the user's machine", () => {
    assert.deepEqual(manifest.extensionKind, ['ui', 'workspace']);
  });

  it('offers Copy Address (inline and in the menu) and the SSH items only on orders with an address', () => {
    const sshCommands = [
      'hostingAccount.order.copyAddress',
      'hostingAccount.order.connectSsh',
      'hostingAccount.order.openRemoteSsh',
    ];
    for (const command of sshCommands) {
      const entries = itemMenus.filter((e) => e.command === command);
      assert.ok(entries.length > 0, command);
      for (const entry of entries) {
        const regex = viewItemRegex(entry.when);
        for (const value of ORDER_CONTEXT_VALUES) {
          if (!value.endsWith('.address')) assert.equal(regex?.test(value), false, `${command} on ${value}`);
        }
      }
    }
    const copy = itemMenus.filter((e) => e.command === 'hostingAccount.order.copyAddress').map((e) => e.group ?? '');
    assert.ok(copy.some((g) => g.startsWith('inline')) && copy.some((g) => !g.startsWith('inline')), copy.join());
    const connect = itemMenus.find((e) => e.command === 'hostingAccount.order.connectSsh');
    assert.equal(viewItemRegex(connect?.when)?.test('order.running.address'), true);
    assert.equal(viewItemRegex(connect?.when)?.test('order.stopped.address'), false);
  });

  it('declares the SSH settings with their defaults', () => {
    const properties = manifest.contributes.configuration.properties as Record<
      string,
      { default?: unknown; scope?: string }
    >;
    assert.equal(properties['hostingAccount.ssh.user']?.default, 'root');
    assert.equal(properties['hostingAccount.ssh.port']?.default, 22);
    assert.equal(properties['hostingAccount.notifyWhenReachable']?.default, true);
  });

  it('with several orders selected, shows an action only when it fits them all, and Reinstall never', () => {
    for (const action of ['start', 'stop', 'restart']) {
      for (const entry of itemMenus.filter((e) => e.command === `hostingAccount.order.${action}` && !onGroup(e))) {
        assert.ok(
          entry.when?.endsWith(
            `&& (!listMultiSelection || viewItem =~ /^(?!.*\\.selected$)/ || hostingAccount.selectionFits.${action})`,
          ),
          entry.when,
        );
      }
    }
    const reinstall = itemMenus.find((e) => e.command === 'hostingAccount.order.reinstall');
    assert.ok(
      reinstall?.when?.endsWith('&& (!listMultiSelection || viewItem =~ /^(?!.*\\.selected$)/)'),
      reinstall?.when,
    );
  });

  it('offers filter and sort in the Orders view title, and a welcome for a filter that matches nothing', () => {
    const title = manifest.contributes.menus['view/title'] ?? [];
    for (const id of ['hostingAccount.orders.filter', 'hostingAccount.orders.sort']) {
      assert.ok(
        title.some(
          (e) =>
            e.command === id && e.when?.includes('view == hostingAccount.orders') && e.group?.startsWith('navigation'),
        ),
        id,
      );
    }
    const welcome = manifest.contributes.viewsWelcome.filter((w) => w.view === 'hostingAccount.orders');
    assert.ok(
      welcome.some(
        (w) => w.when.includes('hostingAccount.ordersFilteredEmpty') && w.contents === '%welcome.filteredEmpty%',
      ),
    );
    assert.ok(
      welcome.find((w) => w.contents === '%welcome.noOrders%')?.when.includes('!hostingAccount.ordersFilteredEmpty'),
    );
  });

  it('contributes the three language model tools, the action tool without reinstall', () => {
    const tools = (
      manifest.contributes as unknown as {
        languageModelTools: Array<{ name: string; inputSchema: { properties: Record<string, { enum?: string[] }> } }>;
      }
    ).languageModelTools;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['hosting_listOrders', 'hosting_account', 'hosting_orderAction'],
    );
    assert.deepEqual(tools[2]?.inputSchema.properties.action?.enum, ['start', 'stop', 'restart']);
  });

  it('puts Reinstall last, in a group of its own', () => {
    const reinstall = itemMenus.find((e) => e.command === 'hostingAccount.order.reinstall');
    const groups = itemMenus.filter((e) => e.command.startsWith('hostingAccount.order.')).map((e) => e.group ?? '');
    assert.match(reinstall?.group ?? '', /^9_destructive/);
    assert.equal(groups.filter((g) => g.startsWith('9_')).length, 1);
    assert.ok(groups.filter((g) => !g.startsWith('inline')).every((g) => g <= (reinstall?.group ?? '')));
  });

  it('keeps the commands that need a key out of the palette while no account has one, and Open Invoice always', () => {
    const palette = manifest.contributes.menus.commandPalette ?? [];
    /**
     * The palette's `when` for a command, evaluated for the states of the accounts (the context keys these clauses
     * read: any account with a key, any account ready).
     */
    const shownIn = (command: string, ...states: string[]): boolean => {
      const when = palette.find((entry) => entry.command === command)?.when;
      if (when === undefined) return true;
      const keys: Record<string, boolean> = {
        'hostingAccount.anyKey': states.some((state) => /^(?:invalidKey|unreachable|loading|ready)$/.test(state)),
        'hostingAccount.anyReady': states.includes('ready'),
      };
      if (when in keys) return keys[when] === true;
      return when !== 'false';
    };
    const needKey = [
      'hostingAccount.refresh',
      'hostingAccount.showAccount',
      ...ORDER_ACTIONS.map((a) => `hostingAccount.order.${a}`),
      'hostingAccount.order.showDetails',
      'hostingAccount.order.copyId',
    ];
    for (const command of needKey) {
      for (const state of ['noBaseUrl', 'badBaseUrl', 'noKey']) {
        assert.equal(shownIn(command, state), false, `${command} in ${state}`);
        assert.equal(shownIn(command, state, 'ready'), true, `${command}: a second account is ready`);
      }
      assert.equal(shownIn(command, 'ready'), true, `${command} when ready`);
    }
    assert.equal(shownIn('hostingAccount.refresh', 'unreachable'), true, 'Refresh is the way out of an outage');
    assert.equal(shownIn('hostingAccount.invoice.open', 'ready'), false);
    assert.equal(
      shownIn('hostingAccount.showInvoices', 'noKey'),
      true,
      'Show Invoices works signed out too (its welcome says why)',
    );
  });

  it('has a welcome for every connection state in the Orders view', () => {
    const whens = manifest.contributes.viewsWelcome
      .filter((w) => w.view === 'hostingAccount.orders')
      .map((w) => w.when)
      .join(' ');
    for (const state of ['noBaseUrl', 'badBaseUrl', 'noKey', 'invalidKey', 'unreachable', 'loading', 'ready']) {
      assert.ok(whens.includes(`hostingAccount.state == ${state}`), state);
    }
  });

  describe('the Getting Started walkthrough', () => {
    const walkthrough = manifest.contributes.walkthroughs?.find((w) => w.id === 'hostingAccount.gettingStarted');
    const contextKeys = new Set(
      [
        ...readFileSync(join(root, 'src', 'views', 'contextKeys.ts'), 'utf8').matchAll(
          /'(hostingAccount\.[A-Za-z.]+)'/g,
        ),
      ].map((m) => m[1]),
    );
    const views = new Set(
      Object.values(manifest.contributes.views)
        .flat()
        .map((v) => v.id),
    );
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    const settings = new Set(Object.keys(manifest.contributes.configuration.properties));

    it('walks through address, key, servers and connecting, with a picture and words for each step', () => {
      assert.ok(walkthrough, 'contributes.walkthroughs has hostingAccount.gettingStarted');
      assert.deepEqual(
        walkthrough.steps.map((s) => s.id),
        ['address', 'key', 'servers', 'connect'],
      );
      for (const step of walkthrough.steps) {
        assert.ok(step.media.svg && existsSync(join(root, step.media.svg)), `${step.id}: media ${step.media.svg}`);
        assert.match(step.media.altText ?? '', /^%.+%$/, `${step.id}: localised alt text`);
        assert.match(step.title, /^%.+%$/, `${step.id}: localised title`);
      }
    });

    it('completes each step on its own, from events that exist', () => {
      for (const step of walkthrough?.steps ?? []) {
        assert.ok(step.completionEvents.length > 0, `${step.id} has completion events`);
        for (const event of step.completionEvents) {
          const [kind, ...rest] = event.split(':');
          const subject = rest.join(':');
          if (kind === 'onCommand') assert.ok(commands.has(subject), `${step.id}: ${event}`);
          else if (kind === 'onSettingChanged') assert.ok(settings.has(subject), `${step.id}: ${event}`);
          else if (kind === 'onView') assert.ok(views.has(subject), `${step.id}: ${event}`);
          else if (kind === 'onContext') {
            const keys = subject.match(/hostingAccount\.[A-Za-z.]+/g) ?? [];
            assert.ok(keys.length > 0 && keys.every((key) => contextKeys.has(key)), `${step.id}: ${event}`);
          } else assert.fail(`${step.id}: unexpected completion event ${event}`);
        }
      }
    });

    it('links its buttons only to commands that exist', () => {
      const builtIn = new Set(['workbench.action.openSettings', 'hostingAccount.orders.focus']);
      for (const step of walkthrough?.steps ?? []) {
        const text = nls[step.description.slice(1, -1)] ?? '';
        for (const [, command] of text.matchAll(/\(command:([\w.]+)/g)) {
          assert.ok(commands.has(command!) || builtIn.has(command!), `${step.id}: ${command}`);
        }
      }
    });

    it('ships its pictures in the package', () => {
      const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
      assert.match(ignore, /^!media\/(\*\*|walkthrough\/)/m);
    });
  });
});
