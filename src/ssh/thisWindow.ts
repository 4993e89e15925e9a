import * as vscode from 'vscode';
import { type RemoteWindow } from './remoteWindow';

/** This window as the guard and the folder's suggestions see it: its remote name and the authorities of its URIs. */
export function currentRemoteWindow(): RemoteWindow {
  const uris = [
    ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
    vscode.workspace.workspaceFile,
  ];
  return {
    remoteName: vscode.env.remoteName,
    authorities: uris.filter((uri) => uri?.scheme === 'vscode-remote').map((uri) => (uri as vscode.Uri).authority),
  };
}
