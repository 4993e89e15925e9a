// The /__mock/ control endpoints: no auth, no log, no rate limit, so other processes can steer a running mock.
import { matchingKeyIndex } from './auth';
import { type Exchange } from './exchange';
import { type Faults, parseFaultRule } from './faults';
import { type RecordedRequest } from './types';

export const CONTROL_PREFIX = '/__mock/';

export interface ControlTarget {
  readonly requests: readonly RecordedRequest[];
  readonly faults: Faults;
  keys: () => readonly string[];
  clearLog: () => void;
  resetAll: () => void;
  setKeys: (keys: string[]) => void;
  setTransitionMs: (ms: number) => void;
}

export function handleControl(ex: Exchange, target: ControlTarget): void {
  const method = ex.req.method ?? '';
  const ok = (): void => ex.json(200, { ok: true });
  switch (`${method} ${ex.path}`) {
    case 'GET /__mock/log':
      return ex.json(200, target.requests.map((r) => sanitize(r, target.keys())));
    case 'POST /__mock/log/clear':
      target.clearLog();
      return ok();
    case 'GET /__mock/faults':
      return ex.json(200, target.faults.active.map((r) => ({
        ...r,
        path: r.path instanceof RegExp ? String(r.path) : r.path,
      })));
    case 'POST /__mock/faults': {
      const rule = withJson(ex, parseFaultRule);
      if (rule === undefined) return;
      target.faults.add(rule);
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
    default:
      return ex.error(404, 'not_found', 'No such control endpoint');
  }
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
