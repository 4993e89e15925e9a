import { type Order, type OrderAction, type OrderState } from '../../api/models';

/** Restart and reinstall end where they began: "running" alone proves nothing until the server showed progress. */
const AMBIGUOUS_GRACE_MS = 5_000;
/** Another state held this long: the action ended differently (a start failed). */
const OTHER_STATE_GRACE_MS = 30_000;
export const MAX_SETTLE_MS = 15 * 60_000;

export function expectedState(action: OrderAction): OrderState {
  return action === 'stop' ? 'stopped' : 'running';
}

type SettleVerdict = 'settled' | 'unexpected' | 'waiting' | 'gaveUp';

export function settleVerdict(action: OrderAction, order: Order, ageMs: number, sawBusy: boolean): SettleVerdict {
  if (order.state === 'busy') return ageMs >= MAX_SETTLE_MS ? 'gaveUp' : 'waiting';
  if (order.state === expectedState(action)) {
    const ambiguous = action === 'restart' || action === 'reinstall';
    return !ambiguous || sawBusy || ageMs >= AMBIGUOUS_GRACE_MS ? 'settled' : 'waiting';
  }
  if (sawBusy || ageMs >= OTHER_STATE_GRACE_MS) return 'unexpected';
  return ageMs >= MAX_SETTLE_MS ? 'gaveUp' : 'waiting';
}

/** Fast while most actions finish; the first minute stays within 2 s of the truth. */
export function pollDelayMs(ageMs: number): number {
  if (ageMs < 10_000) return 1_000;
  if (ageMs < 60_000) return 2_000;
  if (ageMs < 180_000) return 5_000;
  return 15_000;
}
