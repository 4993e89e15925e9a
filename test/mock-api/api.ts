// Handlers of the authenticated /api/v1 endpoints. Auth, rate limiting and faults have run before these.
import { type Exchange } from './exchange';
import { type ApiRouteName } from './routes';
import { JSON_TYPE } from './exchange';
import {
  type Page,
  pageParam,
  pageUrl,
  type Rendered,
  renderAccount,
  renderActionAccepted,
  renderBalance,
  renderInvoice,
  renderList,
  renderOrder,
  renderSingleOrder,
} from './shapes';
import { isOrderAction, type LiveState, ORDER_ACTIONS } from './state';
import { type ApiShape } from './types';

export interface ApiContext {
  state: LiveState;
  shape: ApiShape;
  pageSize: number | undefined;
  baseUrl: string;
  /** The mock's clock, which renewal dates count from. */
  now: number;
}

export function handleApi(ex: Exchange, route: ApiRouteName, orderId: string | undefined, ctx: ApiContext): void {
  const { state, shape, baseUrl } = ctx;
  switch (route) {
    case 'me':
      return send(ex, renderAccount(shape, state.account, baseUrl));
    case 'balance':
      return send(ex, renderBalance(shape, state.balance));
    case 'orders': {
      const page = paginate(ex, ctx, '/api/v1/orders', state.orders);
      if (page === undefined) return;
      const items = page.items.map((o) => renderOrder(shape, o, baseUrl, ctx.now));
      return send(ex, renderList(shape, 'orders', { ...page, items }));
    }
    case 'invoices': {
      const page = paginate(ex, ctx, '/api/v1/invoices', state.invoices);
      if (page === undefined) return;
      const items = page.items.map((inv) =>
        renderInvoice(shape, inv, inv.url ?? `${ctx.baseUrl}/client/invoices/${encodeURIComponent(String(inv.id))}`),
      );
      return send(ex, renderList(shape, 'invoices', { ...page, items }));
    }
    case 'order': {
      const order = state.getOrder(orderId ?? '');
      if (!order) return notFound(ex, orderId ?? '');
      return send(ex, renderSingleOrder(shape, order, baseUrl, ctx.now));
    }
    case 'action':
      return handleAction(ex, orderId ?? '', ctx);
  }
}

function handleAction(ex: Exchange, orderId: string, ctx: ApiContext): void {
  const order = ctx.state.getOrder(orderId);
  if (!order) return notFound(ex, orderId);
  const action = parseActionBody(ex.body);
  if (typeof action !== 'string') return ex.error(400, 'invalid_request', action.problem);
  if (!isOrderAction(action)) {
    return ex.error(422, 'invalid_action', `action must be one of ${ORDER_ACTIONS.join(', ')}`);
  }
  const outcome = ctx.state.applyAction(order, action);
  if (!outcome.ok) return ex.error(409, outcome.error, outcome.message);
  send(ex, renderActionAccepted(ctx.shape, outcome.order, action, outcome.message, ctx.baseUrl, ctx.now));
}

/** The action value, or what is wrong with the body. Strict on purpose: the spec allows exactly one field. */
function parseActionBody(body: string): string | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'Request body must be valid JSON like {"action":"start"}' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { problem: 'Request body must be a JSON object like {"action":"start"}' };
  }
  const fields = parsed as Record<string, unknown>;
  if (!('action' in fields)) return { problem: 'Missing required field "action"' };
  const extra = Object.keys(fields).filter((k) => k !== 'action');
  if (extra.length > 0) return { problem: `Unexpected field(s) ${extra.join(', ')}; only "action" is allowed` };
  if (typeof fields.action !== 'string') return { problem: 'Field "action" must be a string' };
  return fields.action;
}

function paginate<T>(ex: Exchange, ctx: ApiContext, path: string, all: T[]): Page<T> | undefined {
  const { pageSize, shape } = ctx;
  const selfUrl = `${ctx.baseUrl}${path}`;
  if (pageSize === undefined) return { items: all, total: all.length, selfUrl };
  const param = ex.query.get(pageParam(shape)) ?? '1';
  const page = /^\d{1,9}$/.test(param) ? Number(param) : 0;
  if (page < 1) {
    ex.error(400, 'invalid_request', 'page must be a positive integer');
    return undefined;
  }
  const start = (page - 1) * pageSize;
  const next = start + pageSize < all.length ? pageUrl(shape, selfUrl, page + 1, pageSize) : null;
  const paging = { page, perPage: pageSize, next };
  return { items: all.slice(start, start + pageSize), total: all.length, paging, selfUrl };
}

function notFound(ex: Exchange, orderId: string): void {
  ex.error(404, 'not_found', `Order ${orderId} not found`);
}

function send(ex: Exchange, rendered: Rendered): void {
  if (rendered.body === undefined) ex.send(rendered.status, undefined, '', rendered.headers);
  else ex.send(rendered.status, rendered.contentType ?? JSON_TYPE, JSON.stringify(rendered.body), rendered.headers);
}
