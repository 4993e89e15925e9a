/**
 * The two pieces of undici the client uses. The package's index also loads fetch, WebSocket, caches and mocks,
 * which would triple the size of the API bundle; these files are undici's own modules, loaded the same way.
 */
import type { Agent as AgentClass, Dispatcher } from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;
const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
/* eslint-enable @typescript-eslint/no-require-imports */

export type Agent = AgentClass;

/** `dispatcher.request(options)` without the package index, which is what attaches `request` to the prototype. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, options);
}
