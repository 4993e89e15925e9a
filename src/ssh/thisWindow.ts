import * as vscode from 'vscode';
import { type RemoteWindow } from './remoteWindow';

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
