import { type ProbeTiming } from './probe';
import { type RemoteWindow } from './remoteWindow';

/**
 * What the composition root hands the SSH commands besides the store: left empty in use; the extension's own tests
 * set them (a fast probe, a pretend Remote-SSH window, a stand-in ssh-keygen) through the test API.
 */
export interface SshHooks {
  probeTiming?: ProbeTiming;
  remoteWindow?: () => RemoteWindow;
  /** Another command id to look for instead of Remote - SSH's, to test the offer to install it. */
  remoteSshCommand?: string;
  /** Another ssh-keygen to run (by path, with its own environment), and another known_hosts file for it to edit. */
  sshKeygen?: { readonly file: string; readonly env?: NodeJS.ProcessEnv; readonly knownHostsFile?: string };
}
