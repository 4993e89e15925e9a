/**
 * undici, read on the first request rather than at activation: esbuild makes `./undiciParts` a bundle of its own,
 * `dist/undici.js` (see esbuild.js), the one lazily loaded part of the extension.
 */
import type { Agent, ProxyAgent } from 'undici';
import type * as Parts from './undiciParts';

export type { Dispatcher } from './undiciParts';

let parts: typeof Parts | undefined;

function load(): typeof Parts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parts ??= require('./undiciParts') as typeof Parts;
  return parts;
}

export function request(...args: Parameters<typeof Parts.request>): ReturnType<typeof Parts.request> {
  return load().request(...args);
}

export function tunnelPool(...args: Parameters<typeof Parts.tunnelPool>): ReturnType<typeof Parts.tunnelPool> {
  return load().tunnelPool(...args);
}

export function createAgent(options: Agent.Options): Agent {
  return new (load().Agent)(options);
}

export function createProxyAgent(options: ProxyAgent.Options): ProxyAgent {
  return new (load().ProxyAgent)(options);
}
