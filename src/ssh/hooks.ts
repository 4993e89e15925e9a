import { type ProbeTiming } from './probe';
import { type RemoteWindow } from './remoteWindow';

/**
 * What the composition root hands the SSH commands besides the store: left empty in use; the extension's own tests
 * set them (a fast probe, a pretend Remote-SSH window) through the test API.
 */
export interface SshHooks {
  probeTiming?: ProbeTiming;
  remoteWindow?: () => RemoteWindow;
  /** Another command id to look for instead of Remote - SSH's, to test the offer to install it. */
  remoteSshCommand?: string;
}
