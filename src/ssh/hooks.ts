import { type ProbeTiming } from './probe';
import { type RemoteWindow } from './remoteWindow';

// Empty in use; set by the extension's own tests through the test API.
export interface SshHooks {
  probeTiming?: ProbeTiming;
  remoteWindow?: () => RemoteWindow;
  remoteSshCommand?: string;
  sshKeygen?: { readonly file: string; readonly env?: NodeJS.ProcessEnv; readonly knownHostsFile?: string };
}
