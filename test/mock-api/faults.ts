import { validateHeaderName, validateHeaderValue } from 'node:http';
import { type FaultController, type FaultKind, type FaultRule } from './types';

export const FAULT_KINDS: readonly FaultKind[] = [
  'delay',
  'hang',
  'status',
  'rateLimit',
  'malformed',
  'html',
  'reset',
  'resetMidBody',
  'huge',
  'empty',
  'contentType',
  'redirect',
  'raw',
  'echoKey',
];

interface Entry {
  rule: FaultRule;
  left: number;
}

export class Faults implements FaultController {
  private entries: Entry[] = [];

  add(rule: FaultRule): void {
    this.entries.push({ rule, left: rule.times ?? Infinity });
  }

  clear(): void {
    this.entries = [];
  }

  get active(): readonly FaultRule[] {
    return this.entries.filter((e) => e.left > 0).map((e) => e.rule);
  }

  /** The first matching rule with uses left, consuming one use. */
  take(method: string, rawPath: string): FaultRule | undefined {
    const entry = this.entries.find((e) => e.left > 0 && matches(e.rule, method, rawPath));
    if (!entry) return undefined;
    entry.left--;
    return entry.rule;
  }
}

function matches(rule: FaultRule, method: string, rawPath: string): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  const { path } = rule;
  if (path === undefined) return true;
  if (path instanceof RegExp) {
    path.lastIndex = 0; // a /g or /y rule must not alternate between matching and not
    return path.test(rawPath);
  }
  if (path.includes('?')) return path === rawPath;
  return matchPattern(path, rawPath.split('?')[0] ?? '');
}

/** Matches '/api/v1/orders/:id' style patterns segment by segment on the raw (undecoded) path. */
export function matchPattern(pattern: string, rawPathOnly: string): boolean {
  const want = pattern.split('/');
  const got = rawPathOnly.split('/');
  if (want.length !== got.length) return false;
  return want.every((seg, i) => {
    const actual = got[i] ?? '';
    return seg.startsWith(':') ? actual !== '' : seg === actual;
  });
}

/** Validates a rule received as JSON by the control endpoint; returns an error text when invalid. */
export function parseFaultRule(input: unknown): FaultRule | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'body must be a JSON object';
  const o = input as Record<string, unknown>;
  if (typeof o.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(o.kind)) {
    return `kind must be one of ${FAULT_KINDS.join(', ')}`;
  }
  const rule: FaultRule = { kind: o.kind as FaultKind };
  for (const key of ['method', 'path', 'contentType', 'location'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') return `${key} must be a string`;
    rule[key] = v;
  }
  for (const key of ['times', 'delayMs', 'status', 'bytes'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `${key} must be a non-negative integer`;
    rule[key] = v;
  }
  if (rule.status !== undefined && (rule.status < 100 || rule.status > 599)) return 'status must be 100..599';
  if (o.body !== undefined) {
    // Only a string travels as JSON; a function body is an in-process feature.
    if (typeof o.body !== 'string') return 'body must be a string';
    rule.body = o.body;
  }
  if (o.headers !== undefined) {
    const headers = parseHeaders(o.headers);
    if (typeof headers === 'string') return headers;
    rule.headers = headers;
  }
  if (o.retryAfter !== undefined) {
    if (o.retryAfter !== null && typeof o.retryAfter !== 'string') return 'retryAfter must be a string or null';
    rule.retryAfter = o.retryAfter;
  }
  return rule;
}

function parseHeaders(input: unknown): Record<string, string> | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'headers must be a JSON object';
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    if (typeof value !== 'string') return `header ${name} must be a string`;
    try {
      // Checked here so a bad rule is refused with a 400 instead of failing later as a 500 of the faulted request.
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return `header ${name} is not a valid HTTP header`;
    }
    out[name] = value;
  }
  return out;
}
