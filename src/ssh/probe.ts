import { connect as netConnect } from 'node:net';

export interface ProbeTiming {
  readonly intervalMs: number;
  readonly giveUpMs: number;
  readonly connectTimeoutMs: number;
}

export const PROBE_TIMING: ProbeTiming = { intervalMs: 5_000, giveUpMs: 180_000, connectTimeoutMs: 3_000 };

export type TryConnect = (host: string, port: number, timeoutMs: number, signal: AbortSignal) => Promise<boolean>;

export interface ProbeOutcome {
  readonly result: 'open' | 'gaveUp' | 'cancelled';
  readonly attempts: number;
}

export async function probeUntilOpen(
  host: string,
  port: number,
  timing: ProbeTiming,
  signal: AbortSignal,
  tryConnect: TryConnect = tcpConnect,
): Promise<ProbeOutcome> {
  const started = Date.now();
  let attempts = 0;
  for (;;) {
    if (signal.aborted) return { result: 'cancelled', attempts };
    const attemptStart = Date.now();
    attempts++;
    const remaining = started + timing.giveUpMs - attemptStart;
    if (await tryConnect(host, port, Math.max(1, Math.min(timing.connectTimeoutMs, remaining)), signal)) {
      return { result: 'open', attempts };
    }
    const next = attemptStart + timing.intervalMs;
    if (next - started >= timing.giveUpMs) return { result: signal.aborted ? 'cancelled' : 'gaveUp', attempts };
    await sleep(next - Date.now(), signal);
  }
}

export function tcpConnect(host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const socket = netConnect({ host, port });
    const finish = (open: boolean): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(open);
    };
    const onAbort = (): void => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
