import { type CycleUnit, type RenewalCycle } from '../../models';
import { words } from '../read';

/** A thousand hours is six weeks; a thousand years is no renewal. */
const MAX_COUNT = 1000;
const MAX_TEXT = 32;

type Word = CycleUnit | 'once' | 'free';

/** WHMCS, HostBill, Blesta, Paymenter, Upmind…, squashed: `word:unit:count`. */
const WORDS = new Map<string, readonly [Word, number]>(
  words(
    'hourly:hour:1 daily:day:1 weekly:week:1 biweekly:week:2 fortnightly:week:2 monthly:month:1 bimonthly:month:2 ' +
      'quarterly:month:3 semiannually:month:6 semiannual:month:6 halfyearly:month:6 annually:year:1 annual:year:1 ' +
      'yearly:year:1 biennially:year:2 biennial:year:2 triennially:year:3 triennial:year:3 quadrennially:year:4 ' +
      'quinquennially:year:5 onetime:once:1 once:once:1 lifetime:once:1 free:free:1 freeaccount:free:1',
  ).map((entry) => {
    const [word, unit, count] = entry.split(':') as [string, Word, string];
    return [word, [unit, Number(count)]];
  }),
);
const UNITS: readonly string[] = ['hour', 'day', 'week', 'month', 'year'];
/** `1M`, `12M`, `1Y` and ISO 8601 durations (`P1M`, `P2W`). */
const LETTERS: Readonly<Record<string, CycleUnit>> = { h: 'hour', d: 'day', w: 'week', m: 'month', y: 'year' };

// A range ("6-12 months") is no cycle: squashed, it would read as 612 of them.
function squashed(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_TEXT && !/\d\s*-\s*\d/.test(value)
    ? value.toLowerCase().replace(/[\s_-]+/g, '')
    : undefined;
}

export function readCount(value: unknown): number | undefined {
  const count = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim() || 'x') : NaN;
  return Number.isInteger(count) && count >= 0 && count <= MAX_COUNT ? count : undefined;
}

export function readUnit(value: unknown): Word | undefined {
  const key = squashed(value);
  if (key === 'onetime') return 'once';
  const unit = key?.replace(/s$/, '');
  return UNITS.find((u) => u === unit) as CycleUnit | undefined;
}

// One object per cycle, not per order (a list may hold 10,000): at most 5 units × 1,000 counts.
const CYCLES = new Map<string, RenewalCycle>();

export function cycleOf(unit: Word, count: number | undefined): RenewalCycle | undefined {
  if (unit !== 'once' && unit !== 'free' && (count === undefined || count < 1 || count > MAX_COUNT)) return undefined;
  const key = `${unit}:${count ?? 1}`;
  const known = CYCLES.get(key);
  if (known) return known;
  const cycle: RenewalCycle =
    unit === 'once' || unit === 'free' ? { kind: unit } : { kind: 'every', unit, count: count as number };
  CYCLES.set(key, cycle);
  return cycle;
}

function cycleOfWord(key: string | undefined): RenewalCycle | undefined {
  if (key === undefined) return undefined;
  const word = WORDS.get(key);
  if (word) return cycleOf(word[0], word[1]);
  const unit = readUnit(key);
  if (unit) return cycleOf(unit, 1);
  const match = /^p?(\d{1,4})([a-z]{1,6})$/.exec(key);
  if (!match) return undefined;
  const [, digits, letters] = match as unknown as [string, string, string];
  const counted = letters.length === 1 ? LETTERS[letters] : readUnit(letters);
  return counted ? cycleOf(counted, readCount(digits)) : undefined;
}

export function readCycleWord(value: unknown): RenewalCycle | undefined {
  return typeof value === 'string' && value.length <= MAX_TEXT ? cycleOfWord(squashed(value)) : undefined;
}
