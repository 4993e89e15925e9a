// The package's index also loads fetch, WebSocket, caches and mocks, which would triple the bundle.
import type {
  Agent as AgentClass,
  buildConnector as buildConnectorFunction,
  Dispatcher,
  Pool as PoolClass,
  ProxyAgent as ProxyAgentClass,
} from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;
// Requiring the files, not the index, leaves undici's global dispatcher alone (lib/global.js).
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentClass;
const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
export const Pool = require('undici/lib/dispatcher/pool.js') as typeof PoolClass;
export const buildConnector = require('undici/lib/core/connect.js') as typeof buildConnectorFunction;
/* eslint-enable @typescript-eslint/no-require-imports */

export type Agent = AgentClass;
export type ProxyAgent = ProxyAgentClass;
export type { Dispatcher };
export type Connector = buildConnectorFunction.connector;

// The package index is what attaches `request` to the prototype.
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, options);
}
