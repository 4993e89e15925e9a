import * as vscode from 'vscode';

export interface SshSettings {
  // Checked where used, so a bad value gets a message instead of a silent default.
  readonly user: unknown;
  readonly port: unknown;
  readonly notifyWhenReachable: boolean;
}

// The user's own settings only: a workspace must not pick whom the terminal logs in as or which port is probed.
export function readSshSettings(): SshSettings {
  const config = vscode.workspace.getConfiguration('hostingAccount');
  const user = <T>(name: string, fallback: T): unknown => {
    const inspected = config.inspect<T>(name);
    return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
  };
  return {
    user: user('ssh.user', 'root'),
    port: user('ssh.port', 22),
    notifyWhenReachable: user('notifyWhenReachable', true) !== false,
  };
}
