/**
 * The figures a user feels, measured in a real VS Code (code-server) in Chromium with the packaged extension: how
 * soon an order shows busy after the user confirms, how soon it shows settled after the server settles, and what a
 * burst of Refresh clicks costs.
 */
import { performance } from 'node:perf_hooks';
import { type Session, startSession, stopSession } from '../e2e/session';
import { dialogButton, signIn } from '../e2e/signIn';
import { timeouts } from '../e2e/workbench';
import { type OrderRecord } from '../mock-api/server';
import { type Figure } from './figures';
import { round, summarize } from './stats';

/** Polls the mock (in this process) until the order's state changes, and returns when it did (Date.now). */
function whenStatusBecomes(session: Session, id: OrderRecord['id'], status: string): Promise<number> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (session.mock.state.getOrder(id)?.status === status) {
        clearInterval(timer);
        resolve(Date.now());
      }
    }, 2);
  });
}

export async function uiFigures(cycles = 3): Promise<Figure[]> {
  const session = await startSession({ mock: { transitionMs: 3_000 } });
  try {
    await signIn(session);
    const { workbench, mock, page } = session;
    const orders = workbench.view('Orders');
    const target = mock.state.orders.find((o) => o.name === 'web-frontend-01');
    if (!target) throw new Error('the mock has no web-frontend-01');
    const row = workbench.rowByText('web-frontend-01', orders);
    await row.waitFor({ timeout: timeouts.ui });

    const busy: number[] = [];
    const settled: number[] = [];
    for (let cycle = 0; cycle < cycles; cycle++) {
      // Stop: confirmed in the modal, the moment measured from the click on its button.
      await workbench.contextMenu(row, 'Stop');
      const button = dialogButton(session, 'Stop');
      await button.waitFor({ timeout: timeouts.ui });
      let flipped = whenStatusBecomes(session, target.id, 'stopped');
      let started = performance.now();
      await button.click();
      await row.filter({ hasText: 'Stopping…' }).waitFor({ timeout: timeouts.ui });
      busy.push(performance.now() - started);
      await row.filter({ hasText: /Stopped/ }).waitFor({ timeout: timeouts.ui });
      settled.push(Date.now() - (await flipped));

      // Start: no confirmation, so measured from the click on the menu item.
      flipped = whenStatusBecomes(session, target.id, 'running');
      await row.click({ button: 'right' });
      const item = page.getByRole('menuitem', { name: 'Start' }).first();
      await item.hover();
      started = performance.now();
      await page.keyboard.press('Enter');
      await row.filter({ hasText: 'Starting…' }).waitFor({ timeout: timeouts.ui });
      busy.push(performance.now() - started);
      await row.filter({ hasText: /Running/ }).waitFor({ timeout: timeouts.ui });
      settled.push(Date.now() - (await flipped));
    }

    // Thirty clicks on the view's Refresh button within a second.
    await page.waitForTimeout(2_500);
    const before = mock.requests.length;
    const refresh = page
      .locator('.sidebar .pane-header', { hasText: 'Orders' })
      .locator('.action-label[aria-label^="Refresh"]');
    await orders.hover();
    const box = await refresh.boundingBox();
    if (!box) throw new Error('the Refresh button is not visible');
    const clicksStarted = performance.now();
    // Straight mouse clicks at the button: Playwright's own checks between clicks would stretch 30 clicks past a second.
    for (let i = 0; i < 30; i++) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const clicksMs = performance.now() - clicksStarted;
    await page.waitForTimeout(3_000);
    const perRoute = new Map<string, number>();
    for (const r of mock.requests.slice(before)) {
      if (r.rawPath.startsWith('/api/')) perRoute.set(r.route, (perRoute.get(r.route) ?? 0) + 1);
    }
    const worst = Math.max(0, ...perRoute.values());

    const b = summarize(busy);
    const s = summarize(settled);
    return [
      {
        id: 'confirmToBusy',
        label: 'time from confirming an action to the busy state shown on the node',
        value: `${round(b.median, 0)} ms`,
        budget: '≤ 100 ms',
        met: b.median <= 100,
        detail: `median of ${b.n} (stop via the modal, start via the menu), p10–p90 ${round(b.p10, 0)}–${round(b.p90, 0)} ms, in Chromium`,
        data: busy,
      },
      {
        id: 'settleToShown',
        label: 'time from the server settling to the settled state shown (while polling)',
        value: `${round(s.median / 1000, 2)} s`,
        budget: '≤ 2 s',
        met: s.median <= 2_000,
        detail: `median of ${s.n}, p10–p90 ${round(s.p10 / 1000, 2)}–${round(s.p90 / 1000, 2)} s; the mock settles 3 s after an action`,
        data: settled,
      },
      {
        id: 'refreshClicks',
        label: 'requests caused by 30 Refresh clicks within one second',
        value: `${worst} per endpoint`,
        budget: '≤ 1 per endpoint',
        met: worst <= 1,
        detail: `30 clicks in ${round(clicksMs, 0)} ms: ${[...perRoute].map(([route, n]) => `${route} ×${n}`).join(', ') || 'no request'}`,
      },
    ];
  } finally {
    await stopSession(session);
  }
}
