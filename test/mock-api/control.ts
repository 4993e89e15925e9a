// The /__mock/ control endpoints: no auth, no log, no rate limit, so other processes can steer a running mock.
import { matchingKeyIndex } from './auth';
import { type Exchange } from './exchange';
import { type Faults, parseFaultRule } from './faults';
import {
  hostileIndex,
  type HostileName,
  hostileRule,
  HOSTILE_NAMES,
  isHostileName,
  type ServeOptions,
} from './hostile';
import { type FaultRule, type OrderStatus, type RecordedRequest } from './types';

export const CONTROL_PREFIX = '/__mock/';

export interface ControlTarget {
  readonly requests: readonly RecordedRequest[];
  readonly faults: Faults;
  keys: () => readonly string[];
  clearLog: () => void;
  resetAll: () => void;
  setKeys: (keys: string[]) => void;
  setTransitionMs: (ms: number) => void;
  /** Changes an order as the provider's panel (or another tool) would: no request of the client explains it. */
  setOrderStatus?: (id: string, status: OrderStatus) => boolean;
}

export function handleControl(ex: Exchange, target: ControlTarget): void {
  const method = ex.req.method ?? '';
  const ok = (): void => ex.json(200, { ok: true });
  switch (`${method} ${ex.path}`) {
    case 'GET /__mock/log':
      return ex.json(
        200,
        target.requests.map((r) => sanitize(r, target.keys())),
      );
    case 'POST /__mock/log/clear':
      target.clearLog();
      return ok();
    case 'GET /__mock/faults':
      return ex.json(200, target.faults.active.map(describeRule));
    case 'POST /__mock/faults': {
      const rule = withJson(ex, parseFaultRule);
      if (rule === undefined) return;
      target.faults.add(rule);
      return ex.json(200, { ok: true, active: target.faults.active.length });
    }
    case 'GET /__mock/hostile':
      return ex.json(200, hostileIndex());
    case 'POST /__mock/hostile': {
      // Function bodies (the endless chain) cannot travel as JSON; naming the entry lets another process serve it.
      const served = withJson(ex, parseHostile);
      if (served === undefined) return;
      target.faults.add(hostileRule(served.name, served.options));
      return ex.json(200, { ok: true, active: target.faults.active.length });
    }
    case 'POST /__mock/faults/clear':
      target.faults.clear();
      return ok();
    case 'POST /__mock/reset':
      target.resetAll();
      return ok();
    case 'POST /__mock/keys': {
      const keys = withJson(ex, parseKeys);
      if (keys === undefined) return;
      target.setKeys(keys);
      return ok();
    }
    case 'POST /__mock/transition': {
      const ms = withJson(ex, parseMs);
      if (ms === undefined) return;
      target.setTransitionMs(ms);
      return ok();
    }
    case 'POST /__mock/orders/state': {
      const change = withJson(ex, parseOrderState);
      if (change === undefined) return;
      if (!target.setOrderStatus?.(change.id, change.status)) return ex.error(404, 'not_found', 'No such order');
      return ok();
    }
    default:
      return ex.error(404, 'not_found', 'No such control endpoint');
  }
}

/** A rule as JSON: RegExp paths as text, and raw bodies summarised so a 10 MB body does not flood the listing. */
function describeRule(r: FaultRule): Record<string, unknown> {
  const body =
    typeof r.body === 'function'
      ? '[function]'
      : r.body !== undefined && r.body.length > 1024
        ? `[${Buffer.byteLength(r.body)} bytes]`
        : r.body;
  return { ...r, path: r.path instanceof RegExp ? String(r.path) : r.path, body };
}

function parseHostile(input: unknown): { name: HostileName; options: ServeOptions } | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'body must be a JSON object';
  const { name, method, path, times } = input as Record<string, unknown>;
  if (typeof name !== 'string' || !isHostileName(name)) return `name must be one of ${HOSTILE_NAMES.join(', ')}`;
  if (method !== undefined && typeof method !== 'string') return 'method must be a string';
  if (path !== undefined && typeof path !== 'string') return 'path must be a string';
  if (times !== undefined && !(typeof times === 'number' && Number.isInteger(times) && times >= 0)) {
    return 'times must be a non-negative integer';
  }
  return { name, options: { method, path, times } };
}

type LoggedRequest = Omit<RecordedRequest, 'authorization'> & {
  hasAuthorization: boolean;
  authorizationMatchesKey: number | null;
};

function sanitize(r: RecordedRequest, keys: readonly string[]): LoggedRequest {
  const { authorization, ...rest } = r;
  return {
    ...rest,
    hasAuthorization: authorization !== undefined,
    authorizationMatchesKey: matchingKeyIndex(authorization, keys),
  };
}

/** Parses the body and validates it; answers 400 and returns undefined when either fails. */
function withJson<T>(ex: Exchange, parse: (input: unknown) => T | string): T | undefined {
  let input: unknown;
  try {
    input = JSON.parse(ex.body);
  } catch {
    ex.error(400, 'invalid_request', 'Body must be valid JSON');
    return undefined;
  }
  const result = parse(input);
  if (typeof result === 'string') {
    ex.error(400, 'invalid_request', result);
    return undefined;
  }
  return result;
}

function parseKeys(input: unknown): string[] | string {
  const keys = (input as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((k): k is string => typeof k === 'string' && k !== '')) {
    return 'body must be {"keys":["..."]} with non-empty strings';
  }
  return keys;
}

function parseMs(input: unknown): number | string {
  const ms = (input as { ms?: unknown } | null)?.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'body must be {"ms":N} with N >= 0';
  return ms;
}

const ORDER_STATUSES: readonly OrderStatus[] = [
  'running',
  'stopped',
  'suspended',
  'starting',
  'stopping',
  'restarting',
  'reinstalling',
];

function parseOrderState(input: unknown): { id: string; status: OrderStatus } | string {
  const { id, status } = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof id !== 'string' && typeof id !== 'number') return 'body must be {"id":…,"status":"…"}';
  const known = ORDER_STATUSES.find((s) => s === status);
  if (!known) return `status must be one of ${ORDER_STATUSES.join(', ')}`;
  return { id: String(id), status: known };
}
