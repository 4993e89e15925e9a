import { ApiError, type ApiErrorKind } from './errors';
import { JSON_BOUNDS, JsonTooComplex, parseJson } from './json';
import { isObject } from './normalise/read';
import { maskParsed, maskSecrets } from './secretMask';
import { type TransportResponse } from './transport';
import { optional, plain, serverText } from '../util/serverText';

export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly secrets?: readonly string[];
}

// RFC 9110's IMF-fixdate, RFC 850 and asctime forms.
const HTTP_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6}, \d{2}[ -][A-Z][a-z]{2}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT$|^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value || value.length > 64) return undefined;
  const text = value.trim();
  if (/^\d{1,12}(?:\.\d{1,6})?$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

// Epoch seconds, epoch milliseconds or seconds from now, depending on the server.
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (!value || value.length > 32 || !/^\d{1,16}(?:\.\d{1,6})?$/.test(value.trim())) return undefined;
  const number = Number(value);
  if (number > 1e12) return number;
  if (number > 1e9) return number * 1000;
  return now + number * 1000;
}

export function mask(text: string, key: string, others: readonly string[] = []): string {
  return maskSecrets(text, [key, ...others]);
}

export function safeRequestId(value: string | undefined, secrets: readonly string[]): string | undefined {
  if (!value) return undefined;
  const cleaned = maskSecrets(value.slice(0, 512), secrets)
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 64);
  return cleaned || undefined;
}

const EXCERPT_WINDOW = 4096;

export function excerpt(body: string, key: string, max = 120, others: readonly string[] = []): string {
  const secrets = [key, ...others];
  // Room for a secret's longest form (six characters a character as \uXXXX), so a cut form is still masked.
  const room = 6 * Math.max(0, ...secrets.map((secret) => secret.length));
  const text = maskSecrets(body.slice(0, EXCERPT_WINDOW + room), secrets).slice(0, EXCERPT_WINDOW);
  let out = '';
  let space = false;
  for (let i = 0; i < text.length && out.length <= max; i++) {
    const char = text[i] ?? '';
    if (char === '<') {
      const skipTo = endOfTag(text, i);
      i = skipTo - 1;
      space = out.length > 0;
      continue;
    }
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === '\u00a0') {
      space = out.length > 0;
      continue;
    }
    if (char === '&' && text.startsWith('&nbsp;', i)) {
      i += 5;
      space = out.length > 0;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += char;
  }
  // Masked again as it reads once spaces are folded.
  const shown = maskSecrets(out, secrets);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

function endOfTag(text: string, start: number): number {
  const close = text.indexOf('>', start + 1);
  if (close < 0) return text.length;
  const name = text.slice(start + 1, Math.min(close, start + 7)).toLowerCase();
  for (const element of ['script', 'style']) {
    if (name.startsWith(element)) {
      const end = text.toLowerCase().indexOf(`</${element}`, close);
      if (end < 0) return text.length;
      const after = text.indexOf('>', end);
      return after < 0 ? text.length : after + 1;
    }
  }
  return close + 1;
}

function looksLikeHtml(response: TransportResponse): boolean {
  return (
    /html/i.test(response.headers['content-type'] ?? '') || response.body.slice(0, 1024).trimStart().startsWith('<')
  );
}

export function readErrorBody(body: unknown): { code?: string; message?: string } {
  if (!isObject(body)) return {};
  const { error, message, detail, title, code, errors } = body;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() ? value.trim() : undefined;
  if (isObject(error)) {
    return { code: text(error.code) ?? text(error.type), message: text(error.message) ?? text(error.detail) };
  }
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return {
    code: text(error) ?? text(code) ?? (isObject(first) ? text(first.code) : undefined),
    message: text(message) ?? text(detail) ?? text(title) ?? (isObject(first) ? text(first.message) : undefined),
  };
}

const AUTH_CODE =
  /unauthori[sz]ed|unauthenticated|(?:invalid|missing|expired|revoked|bad|wrong)_?(?:api_?)?(?:key|token)/i;

function kindForStatus(status: number, code: string | undefined): ApiErrorKind {
  if (code && /^unauthori[sz]ed$/i.test(code)) return 'unauthorized';
  if (status === 401) return 'unauthorized';
  // A 403 that names another reason (e.g. "order_suspended") is a refusal, not a bad key.
  if (status === 403) return !code || AUTH_CODE.test(code) ? 'unauthorized' : 'invalidRequest';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'server';
  if (status >= 300 && status < 400) return 'badResponse';
  return 'invalidRequest';
}

const LARGE_BODY = 1024 * 1024;

export async function interpret(response: TransportResponse, context: RequestContext, now: number): Promise<unknown> {
  const { status } = response;
  const secrets = [context.key, ...(context.secrets ?? [])];
  const requestId = safeRequestId(response.headers['x-request-id'], secrets);
  const base = { status, method: context.method, path: context.path, requestId };
  // Before anything reads it: a key echoed anywhere in the body is gone (escaped, once parsed).
  const body = maskSecrets(response.body, secrets, false);
  if (body.length > LARGE_BODY) await new Promise((resolve) => setImmediate(resolve));
  let json: unknown;
  let parsed = false;
  let refused: JsonTooComplex | undefined;
  if (body.trim()) {
    try {
      json = parseJson(body);
      if (body.includes('\\')) json = maskParsed(json, secrets);
      parsed = true;
    } catch (error) {
      if (error instanceof JsonTooComplex) refused = error;
    }
  }
  const { code, message } = parsed ? readErrorBody(json) : {};
  const serverMessage = optional(message === undefined ? undefined : message.slice(0, 500));
  const safeCode = code === undefined ? undefined : code.slice(0, 100);

  if (status >= 200 && status < 300) {
    // Some servers answer 200 with nothing but an error object.
    const onlyError =
      isObject(json) &&
      typeof json.error === 'string' &&
      Object.keys(json).every((k) => ['error', 'message', 'code', 'status'].includes(k));
    if (onlyError && safeCode) {
      const kind = kindForStatus(AUTH_CODE.test(safeCode) ? 401 : 400, safeCode);
      throw new ApiError(
        kind,
        serverMessage === undefined ? `The server reported "${safeCode}".` : plain(serverMessage),
        {
          ...base,
          code: safeCode,
          serverMessage,
        },
      );
    }
    if (refused) {
      const { bound } = refused;
      throw new ApiError('badResponse', refused.message, {
        ...base,
        reason: { rule: 'tooComplex', bound, limit: JSON_BOUNDS[bound] },
      });
    }
    if (body.trim() && !parsed) {
      const html = looksLikeHtml(response);
      const quoted = excerpt(body, context.key, 120, context.secrets);
      const what = html ? 'an HTML page' : 'something that is not JSON';
      throw new ApiError('badResponse', `The server answered with ${what} instead of JSON: "${quoted}".`, {
        ...base,
        reason: { rule: 'notJson', html, excerpt: serverText(quoted) },
      });
    }
    return json;
  }

  const kind = kindForStatus(status, safeCode);
  const retryAfterMs =
    kind === 'rateLimited' || status === 503 ? parseRetryAfter(response.headers['retry-after'], now) : undefined;
  let text: string;
  if (status >= 300 && status < 400) {
    text = `The server redirected the request (HTTP ${status}); redirects are not followed, so check the base URL.`;
  } else if (serverMessage) {
    text = `${plain(serverMessage)} (HTTP ${status}${safeCode ? `, ${safeCode}` : ''})`;
  } else if (!parsed && body.trim()) {
    const what = looksLikeHtml(response) ? 'an HTML page' : 'a non-JSON body';
    text = `HTTP ${status} with ${what}: "${excerpt(body, context.key, 120, context.secrets)}"`;
  } else {
    text = `HTTP ${status}${safeCode ? ` (${safeCode})` : ''}`;
  }
  throw new ApiError(kind, text, { ...base, code: safeCode, serverMessage, retryAfterMs });
}
