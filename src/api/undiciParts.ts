/**
 * The pieces of undici the client uses. The package's index also loads fetch, WebSocket, caches and mocks,
 * which would triple the size of the bundle; these files are undici's own modules, loaded the same way. Required by
 * ./undici.ts on the first request.
 */
import type { Agent as AgentClass, Dispatcher, Pool as PoolClass, ProxyAgent as ProxyAgentClass } from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;
// Tunnels HTTPS with CONNECT; requiring it, like the agent, leaves undici's global dispatcher alone (lib/global.js).
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentClass;
const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
const Pool = require('undici/lib/dispatcher/pool.js') as typeof PoolClass;
const apiConnect = require('undici/lib/api/api-connect.js') as Dispatcher['connect'];
/* eslint-enable @typescript-eslint/no-require-imports */

export type Agent = AgentClass;
export type ProxyAgent = ProxyAgentClass;
export type { Dispatcher };

/** `dispatcher.request(options)` without the package index, which is what attaches `request` to the prototype. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, options);
}

/**
 * The pool `ProxyAgent` opens its CONNECT tunnels on. It calls `pool.connect(…)`, which the package index attaches to
 * every dispatcher's prototype; here it goes on this one pool only, so nothing shared is patched.
 */
export function tunnelPool(origin: URL, options: object): Dispatcher {
  return Object.assign(new Pool(origin, options), { connect: apiConnect });
}
