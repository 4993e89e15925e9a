export interface Summary {
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly n: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), n: sorted.length };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
