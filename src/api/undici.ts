// Loaded on the first request, not at activation: `./undiciParts` is a bundle of its own (esbuild.js).
import type { Agent, Pool, ProxyAgent } from 'undici';
import type * as Parts from './undiciParts';

export type { Connector, Dispatcher } from './undiciParts';

let parts: typeof Parts | undefined;

function load(): typeof Parts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parts ??= require('./undiciParts') as typeof Parts;
  return parts;
}

export function request(...args: Parameters<typeof Parts.request>): ReturnType<typeof Parts.request> {
  return load().request(...args);
}

export function buildConnector(
  ...args: Parameters<typeof Parts.buildConnector>
): ReturnType<typeof Parts.buildConnector> {
  return load().buildConnector(...args);
}

export function createAgent(options: Agent.Options): Agent {
  return new (load().Agent)(options);
}

export function createProxyAgent(options: ProxyAgent.Options): ProxyAgent {
  return new (load().ProxyAgent)(options);
}

export function createPool(origin: string | URL, options: Pool.Options): Pool {
  return new (load().Pool)(origin, options);
}
