import * as vscode from 'vscode';
import type { NetworkSettings } from './api/network/settings';

export const SECTION = 'hostingAccount';

export interface Settings {
  readonly baseUrl: string;
  readonly refreshIntervalSeconds: number;
  readonly lowBalanceThreshold: number;
  readonly confirmStopAndRestart: boolean;
  readonly requestTimeoutMs: number;
  readonly maxRequestsPerMinute: number;
  readonly websiteUrl: string;
  readonly watchIntervalMinutes: number;
  readonly renewalWarningDays: number;
}

// Where the key goes and how hard the server is hit: user settings only, so a workspace can never redirect the key.
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const userOnly = userValue(config);
  const number = (name: string, fallback: number, min: number, max: number): number =>
    clamp(config.get<number>(name, fallback), fallback, min, max);
  return {
    baseUrl: String(userOnly<string>('baseUrl', '')).trim(),
    refreshIntervalSeconds: refreshInterval(number('refreshInterval', 60, 0, 86_400)),
    lowBalanceThreshold: number('lowBalanceThreshold', 5, 0, Number.MAX_SAFE_INTEGER),
    // A workspace must not be able to switch off the confirmation before a server is stopped.
    confirmStopAndRestart: userOnly<boolean>('confirmStopAndRestart', true) !== false,
    requestTimeoutMs: number('requestTimeout', 30, 1, 600) * 1000,
    maxRequestsPerMinute: clamp(userOnly<number>('maxRequestsPerMinute', 100), 100, 1, 120),
    websiteUrl: String(userOnly<string>('websiteUrl', '')).trim(),
    watchIntervalMinutes: number('watchInterval', 5, 0, 24 * 60),
    renewalWarningDays: Math.floor(number('renewalWarningDays', 7, 0, 90)),
  };
}

function userValue(config: vscode.WorkspaceConfiguration): <T>(name: string, fallback: T) => T {
  return <T>(name: string, fallback: T): T => {
    const inspected = config.inspect<T>(name);
    return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
  };
}

// VS Code applies these to Node's `http` and `fetch`, not to our bundled undici. User settings only: a workspace that
// could name a proxy or switch certificate checks off could read the key.
export function readNetworkSettings(env: NodeJS.ProcessEnv = process.env): NetworkSettings {
  const user = userValue(vscode.workspace.getConfiguration('http'));
  return {
    proxy: user<NetworkSettings['proxy']>('proxy', undefined),
    noProxy: user<NetworkSettings['noProxy']>('noProxy', undefined),
    proxySupport: user<NetworkSettings['proxySupport']>('proxySupport', undefined),
    proxyAuthorization: user<NetworkSettings['proxyAuthorization']>('proxyAuthorization', undefined),
    strictSSL: user('proxyStrictSSL', true),
    systemCertificates: user('systemCertificates', true),
    env: { ...env },
  };
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function refreshInterval(seconds: number): number {
  return seconds === 0 ? 0 : Math.max(10, seconds);
}

export function affects(event: vscode.ConfigurationChangeEvent, name: keyof typeof SETTING_IDS): boolean {
  return event.affectsConfiguration(SETTING_IDS[name]);
}

export const SETTING_IDS = {
  baseUrl: `${SECTION}.baseUrl`,
  refreshInterval: `${SECTION}.refreshInterval`,
  lowBalanceThreshold: `${SECTION}.lowBalanceThreshold`,
  confirmStopAndRestart: `${SECTION}.confirmStopAndRestart`,
  requestTimeout: `${SECTION}.requestTimeout`,
  maxRequestsPerMinute: `${SECTION}.maxRequestsPerMinute`,
  websiteUrl: `${SECTION}.websiteUrl`,
  watchInterval: `${SECTION}.watchInterval`,
  renewalWarningDays: `${SECTION}.renewalWarningDays`,
} as const;
