import { checkHost, isSafePort, isSafeUser } from '../util/hostCheck';

export interface SshTarget {
  readonly host: string;
  readonly user: string;
  readonly port: number;
}

// Checked again at the last step: whatever the caller did, a host that is not plain cannot become an option. `-l`,
// so no `user@host` text is ever assembled.
export function sshArgs(target: SshTarget): string[] {
  const host = checkHost(target.host);
  if (!host.ok) throw new Error(`not a plain host: ${host.problem}`);
  if (!isSafeUser(target.user)) throw new Error('not a plain user name');
  if (!isSafePort(target.port)) throw new Error('not a port number');
  return ['-l', target.user, '-p', String(target.port), '--', host.host];
}
