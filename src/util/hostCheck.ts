import { BlockList, isIPv6 } from 'node:net';

export type HostKind = 'ipv4' | 'ipv6' | 'name';
// `numericForm`: `127.1`; `embeddedIPv4`: an IPv6 form the IPv4 checks would not see.
export type HostProblem = 'empty' | 'option' | 'notAscii' | 'notHost' | 'numericForm' | 'unspecified' | 'embeddedIPv4';

export type HostCheck =
  | { readonly ok: true; readonly host: string; readonly kind: HostKind }
  | { readonly ok: false; readonly problem: HostProblem };

const MAX_NAME = 253;
const MAX_LABEL = 63;

interface SpecialIPv6 {
  readonly unspecified: BlockList;
  readonly loopback: BlockList;
  readonly embedded: BlockList;
}

// Built on first use: it loads a part of Node nothing else needs at activation.
let special: SpecialIPv6 | undefined;

function specialIPv6(): SpecialIPv6 {
  if (!special) {
    special = { unspecified: new BlockList(), loopback: new BlockList(), embedded: new BlockList() };
    special.unspecified.addAddress('0.0.0.0', 'ipv4');
    special.unspecified.addAddress('::', 'ipv6');
    special.loopback.addAddress('::1', 'ipv6');
    // Mapped, translated, compatible (holds `::` and `::1`, checked first), NAT64 well-known and local.
    special.embedded.addSubnet('::ffff:0:0', 96, 'ipv6');
    special.embedded.addSubnet('::ffff:0:0:0', 96, 'ipv6');
    special.embedded.addSubnet('::', 96, 'ipv6');
    special.embedded.addSubnet('64:ff9b::', 96, 'ipv6');
    special.embedded.addSubnet('64:ff9b:1::', 48, 'ipv6');
  }
  return special;
}

function checkIPv6(text: string): HostCheck {
  const { unspecified, loopback, embedded } = specialIPv6();
  if (unspecified.check(text, 'ipv6')) return { ok: false, problem: 'unspecified' };
  if (!loopback.check(text, 'ipv6') && embedded.check(text, 'ipv6')) return { ok: false, problem: 'embeddedIPv4' };
  return { ok: true, host: text, kind: 'ipv6' };
}

export function checkHost(text: unknown): HostCheck {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, problem: 'empty' };
  if (text.startsWith('-')) return { ok: false, problem: 'option' };
  // Cut before any pattern runs: no address is longer than a DNS name.
  if (text.length > MAX_NAME) return { ok: false, problem: 'notHost' };
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7e) return { ok: false, problem: 'notAscii' };
  }
  if (isPlainIPv4(text)) {
    return text === '0.0.0.0' ? { ok: false, problem: 'unspecified' } : { ok: true, host: text, kind: 'ipv4' };
  }
  if (text.includes(':')) return isPlainIPv6(text) ? checkIPv6(text) : { ok: false, problem: 'notHost' };
  if (/^[\d.a-z-]+$/i.test(text) && endsNumeric(text)) return { ok: false, problem: 'numericForm' };
  return isDnsName(text) ? { ok: true, host: text, kind: 'name' } : { ok: false, problem: 'notHost' };
}

export function isPlainIPv6(text: string): boolean {
  return text.length <= 45 && /^[\d.:a-f]+$/i.test(text) && isIPv6(text);
}

// No leading zeros: the resolver reads `010.0.0.1` as octal, another host.
export function isPlainIPv4(text: string): boolean {
  return plainIPv4Head(text) >= 0;
}

export function plainIPv4Head(text: string): number {
  let parts = 0;
  let digits = 0;
  let value = 0;
  let head = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x2e;
    if (code >= 0x30 && code <= 0x39) {
      if (digits === 1 && value === 0) return -1;
      value = value * 10 + code - 0x30;
      if (++digits > 3) return -1;
    } else if (code === 0x2e && digits > 0 && value <= 255 && parts < 4) {
      if (parts < 2) head = head * 256 + value;
      parts++;
      digits = 0;
      value = 0;
    } else {
      return -1;
    }
  }
  return parts === 4 ? head : -1;
}

// The C library reads a numeric top-level label as an IPv4 address in a legacy form.
function endsNumeric(text: string): boolean {
  const last = text.slice(text.lastIndexOf('.') + 1);
  return /^(?:\d+|0x[\da-f]*)$/i.test(last);
}

export function isDnsName(text: string): boolean {
  if (text.length > MAX_NAME || endsNumeric(text)) return false;
  const labels = text.split('.');
  return labels.every(
    (label) =>
      label.length > 0 &&
      label.length <= MAX_LABEL &&
      /^[\da-z-]+$/i.test(label) &&
      !label.startsWith('-') &&
      !label.endsWith('-'),
  );
}

export function isSafeUser(text: unknown): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= 32 && /^[a-z_][\w.-]*$/i.test(text);
}

export function isSafePort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65_535;
}

const SHARED_HOSTS = new Set([
  'localhost',
  'localhost.localdomain',
  'github.com',
  'gist.github.com',
  'ssh.github.com',
  'gitlab.com',
  'altssh.gitlab.com',
  'bitbucket.org',
  'altssh.bitbucket.org',
  'ssh.dev.azure.com',
  'vs-ssh.visualstudio.com',
  'dev.azure.com',
  'codeberg.org',
  'gitee.com',
  'git.code.sf.net',
  'huggingface.co',
  'hf.co',
  'git.sr.ht',
  'heroku.com',
  'git.heroku.com',
]);

export function isSharedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return SHARED_HOSTS.has(name) || name.endsWith('.localhost') || name === '::1' || /^(?:127\.|::ffff:7f)/.test(name);
}
