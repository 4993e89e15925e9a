import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ACCOUNT_CONTEXT_VALUES } from '../../src/views/accountContextValues';
import { INVOICE_CONTEXT_VALUES } from '../../src/views/invoices/invoicePresentation';
import { orderItemContextValues } from '../../src/views/orders/orderPresentation';
import { activeExtension } from './env';

interface Manifest {
  contributes?: {
    commands?: { command: string }[];
    menus?: Record<string, { command: string; when?: string }[]>;
  };
}

/** Every contextValue each view's items can carry. */
const contextValuesByView: Record<string, readonly string[]> = {
  'hostingAccount.orders': [...orderItemContextValues(), ...ACCOUNT_CONTEXT_VALUES],
  'hostingAccount.invoices': [...INVOICE_CONTEXT_VALUES, ...ACCOUNT_CONTEXT_VALUES],
};

describe('contributed commands', () => {
  let manifest: Manifest;

  before(async () => {
    manifest = (await activeExtension()).packageJSON as Manifest;
  });

  it('are all registered once the extension is active', async () => {
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], 'contributed commands without a registration');
  });

  it('show in item menus only where an item can match (every viewItem regex matches a contextValue)', () => {
    const entries = manifest.contributes?.menus?.['view/item/context'] ?? [];
    assert.ok(entries.length > 0, 'package.json has view/item/context menus');
    const dead = entries.filter(({ when = '' }) => {
      const view = /\bview == ([\w.]+)/.exec(when)?.[1];
      const pattern = /\bviewItem =~ \/(.+?)\/(\w*)(?:\s|$)/.exec(when);
      if (view === undefined || pattern === null) return false;
      const regex = new RegExp(pattern[1] ?? '', pattern[2]);
      return !(contextValuesByView[view] ?? []).some((value) => regex.test(value));
    });
    assert.deepEqual(
      dead.map((entry) => `${entry.command}: ${entry.when}`),
      [],
      'menu entries no item can show',
    );
  });
});
