import { type Socket } from 'node:net';
import { createAgent, createProxyAgent, type Dispatcher } from '../undici';
import { guardedPools } from './connectGuard';
import { decideRoute, type Route } from './route';
import { type NetworkSettings, normaliseNetworkSettings } from './settings';
import { planTrust, type TlsOptions } from './trust';
import { tunnelClient } from './tunnel';

export interface ConnectionPlan {
  readonly route: Route;
  readonly tls: TlsOptions;
  readonly trustSources: readonly string[];
  readonly warnings: readonly string[];
}

export interface PoolOptions {
  readonly connections: number;
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
  readonly onConnected?: (socket: Socket) => void;
}

export function planConnection(origin: string, network?: NetworkSettings): ConnectionPlan {
  const settings = normaliseNetworkSettings(network);
  const route = decideRoute(origin, settings);
  const trust = planTrust(settings);
  return { route, tls: trust.tls, trustSources: trust.sources, warnings: trust.warnings };
}

// Through a proxy always a CONNECT tunnel (only https:// origins get here; loopback is direct) with TLS to the API
// inside it: the proxy sees the host name, never the key.
export function createDispatcher(plan: ConnectionPlan, pool: PoolOptions): Dispatcher {
  const tls = { ...plan.tls, timeout: pool.connectMs };
  const common = {
    headersTimeout: pool.headersMs,
    bodyTimeout: pool.bodyMs,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: pool.connections,
    factory: guardedPools({ connectMs: pool.connectMs, onConnected: pool.onConnected }),
  };
  const { route } = plan;
  if (route.kind !== 'proxy') return createAgent({ ...common, connect: tls });
  return createProxyAgent({
    ...common,
    uri: route.proxy.uri,
    token: route.proxy.authorization,
    proxyTunnel: true,
    requestTls: tls,
    proxyTls: tls,
    clientFactory: tunnelClient,
  });
}
