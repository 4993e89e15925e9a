// Minimal pages of the provider's web site, so "open in browser" links from the extension lead somewhere in a demo.
import { type Exchange } from './exchange';
import { type PageRouteName } from './routes';
import { type LiveState } from './state';

export function handleClientPage(
  ex: Exchange,
  route: PageRouteName,
  id: string | undefined,
  state: LiveState,
  keys: readonly string[],
): void {
  switch (route) {
    case 'clientInvoice': {
      const inv = state.invoices.find((i) => String(i.id) === id);
      if (!inv) return ex.html(404, page('Invoice not found', `<p>There is no invoice ${esc(id ?? '')}.</p>`));
      const rows: [string, string][] = [
        ['Number', inv.number],
        ['Date', inv.date],
        ['Due', inv.due_date],
        ['Amount', `${inv.amount.toFixed(2)} ${inv.currency}`],
        ['Status', inv.status],
      ];
      const table = rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
      return ex.html(200, page(`Invoice ${inv.number}`, `<table>${table}</table>`));
    }
    case 'clientApiKeys': {
      // Keys are masked: this page needs no login, and tests may use keys that look real.
      const items = keys.map((k) => `<li><code>${esc(mask(k))}</code></li>`).join('');
      return ex.html(
        200,
        page(
          'API keys',
          `<p>Keys of ${esc(state.account.name)}:</p><ul>${items}</ul>` +
            '<p>The demo key is printed by <code>npm run mock</code>.</p>',
        ),
      );
    }
    case 'clientLogin':
      return ex.html(200, page('Sign in', '<p>This is the mock provider. There is nothing to sign in to.</p>'));
  }
}

function mask(key: string): string {
  return key.length <= 8 ? '••••' : `${key.slice(0, 4)}••••${key.slice(-4)}`;
}

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Mock Hosting</title>` +
    `</head><body><h1>${esc(title)}</h1>${body}</body></html>`
  );
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
