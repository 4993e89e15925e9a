import assert from 'node:assert/strict';
import { fieldsMarkdown, fieldsOf } from '../../src/views/fields';
import { actionsFor, orderLook } from '../../src/views/orders/orderPresentation';
import { forMarkdown } from '../../src/notify/inert';
import { invoiceLook, newestFirst } from '../../src/views/invoices/invoicePresentation';
import { type Invoice } from '../../src/api/models';
import { formatMoney, isLow } from '../../src/util/money';
import { optional } from '../../src/util/serverText';

describe('presentation (unit)', () => {
  it('maps states to icons, colours and context values', () => {
    assert.deepEqual(orderLook('running'), {
      contextValue: 'order.running',
      icon: 'vm-running',
      color: 'debugIcon.startForeground',
    });
    assert.deepEqual(orderLook('stopped'), {
      contextValue: 'order.stopped',
      icon: 'vm-outline',
      color: 'debugIcon.stopForeground',
    });
    assert.equal(orderLook('busy').icon, 'loading~spin');
    assert.equal(orderLook('suspended').contextValue, 'order.suspended');
    assert.equal(orderLook('unknown').contextValue, 'order.unknown');
  });

  it('shows a pending action as busy, whatever the state', () => {
    assert.deepEqual(orderLook('running', 'stop'), { contextValue: 'order.busy', icon: 'loading~spin' });
    assert.deepEqual(actionsFor('running', 'stop'), []);
  });

  it("lists invoices newest first, undated ones after them in the server's order", () => {
    const invoice = (id: string, date?: string): Invoice => ({ id, date: optional(date), status: 'paid', raw: {} });
    const sorted = newestFirst([
      invoice('a', '2025-10-01'),
      invoice('x'),
      invoice('b', '2026-02-01'),
      invoice('y', 'soon'),
      invoice('c', '2025-12-01'),
    ]);
    assert.deepEqual(
      sorted.map((i) => i.id),
      ['b', 'c', 'a', 'x', 'y'],
    );
  });

  it('offers the actions that fit', () => {
    assert.deepEqual(actionsFor('running'), ['stop', 'restart', 'reinstall']);
    assert.deepEqual(actionsFor('stopped'), ['start', 'reinstall']);
    assert.deepEqual(actionsFor('unknown'), ['start', 'stop', 'restart', 'reinstall']);
    assert.deepEqual(actionsFor('busy'), []);
    assert.deepEqual(actionsFor('suspended'), []);
  });

  it('lists every field, nested ones included, in order', () => {
    const fields = fieldsOf({ id: 1, name: 'web', tags: ['a', 'b'], plan: { cpu: 2, disk: null }, empty: {} });
    assert.deepEqual(fields, [
      { key: 'id', value: '1' },
      { key: 'name', value: 'web' },
      {
        key: 'tags',
        children: [
          { key: '[0]', value: 'a' },
          { key: '[1]', value: 'b' },
        ],
      },
      {
        key: 'plan',
        children: [
          { key: 'cpu', value: '2' },
          { key: 'disk', value: 'null' },
        ],
      },
      { key: 'empty', value: '{}' },
    ]);
  });

  it('escapes server text in Markdown tooltips', () => {
    const markdown = fieldsMarkdown(
      fieldsOf({ note: '[click](command:workbench.action.quit) <img src=x> $(alert)' }),
      String,
    );
    // Every character that could open a link, tag or icon arrives backslash-escaped.
    assert.doesNotMatch(markdown, /(?<!\\)\]\(command:/, markdown);
    assert.doesNotMatch(markdown, /(?<!\\)<img/, markdown);
    assert.doesNotMatch(markdown, /(?<!\\)\$\(alert/, markdown);
    assert.equal(forMarkdown('a*b_c'), 'a\\*b\\_c');
  });

  it('makes unpaid and overdue invoices stand out and marks links', () => {
    const invoice = { id: '1', status: 'overdue' as const, raw: {}, url: 'https://x.example/i/1' };
    assert.deepEqual(invoiceLook(invoice), {
      contextValue: 'invoice.overdue.link',
      icon: 'error',
      color: 'problemsErrorIcon.foreground',
      attention: true,
    });
    assert.equal(invoiceLook({ ...invoice, status: 'paid', url: undefined }).contextValue, 'invoice.paid');
    assert.equal(invoiceLook({ ...invoice, status: 'unpaid' }).attention, true);
  });

  it('formats money for the locale and flags a low balance', () => {
    assert.equal(formatMoney(42.5, 'EUR', 'en-US'), '€42.50');
    assert.match(formatMoney(42.5, 'EUR', 'de-DE'), /^42,50\s€$/u);
    assert.equal(formatMoney(1234.5, undefined, 'en-US'), '1,234.50');
    assert.equal(formatMoney(3, 'NOTACODE', 'en-US'), '3.00 NOTACODE');
    assert.ok(isLow(3, 5));
    assert.ok(!isLow(3, 0));
    assert.ok(!isLow(5, 5));
  });
});
