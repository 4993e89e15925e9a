import * as vscode from 'vscode';
import { Emitter } from '../util/Emitter';
import { Disposable } from '../util/lifecycle';
import {
  bindFolder,
  bindingOf,
  FOLDER_BINDINGS_KEY,
  FOLDER_SUGGESTIONS_KEY,
  type FolderBinding,
  noteSuggested,
  readBindings,
  readSuggestions,
  renameBound,
  type StoredBindings,
  type SuggestionKind,
  unbindFolder,
  unbindAccount,
  wasSuggested,
} from './bindings';

export interface BoundServer {
  readonly accountId: string;
  readonly orderId: string;
  readonly name?: string;
}

export interface ActiveBinding {
  readonly folder: vscode.WorkspaceFolder;
  readonly binding: FolderBinding;
}

// The active folder: the active editor's, else the last one, else the first.
export class FolderBindings extends Disposable {
  private readonly onDidChangeEmitter = this.register(new Emitter<void>());
  readonly onDidChange = this.onDidChangeEmitter.event;
  private lastFolder?: string;
  // One after another: each reads what the last one wrote.
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.lastFolder = this.editorFolder()?.uri.toString();
    this.register(
      vscode.window.onDidChangeActiveTextEditor(() => {
        const folder = this.editorFolder()?.uri.toString();
        if (folder === undefined || folder === this.lastFolder) return;
        this.lastFolder = folder;
        this.onDidChangeEmitter.fire();
      }),
    );
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.onDidChangeEmitter.fire()));
  }

  get activeFolder(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return this.editorFolder() ?? folders.find((folder) => folder.uri.toString() === this.lastFolder) ?? folders[0];
  }

  get active(): ActiveBinding | undefined {
    const folder = this.activeFolder;
    const binding = folder && this.bindingOf(folder.uri);
    return folder && binding && { folder, binding };
  }

  activeOrderIn(accountId: string): string | undefined {
    const binding = this.active?.binding;
    return binding?.accountId === accountId ? binding.orderId : undefined;
  }

  bindingOf(folder: vscode.Uri): FolderBinding | undefined {
    return bindingOf(this.stored(), folder.toString());
  }

  bind(folder: vscode.Uri, server: BoundServer): Promise<void> {
    return this.write((stored) => bindFolder(stored, folder.toString(), server, this.now()));
  }

  unbind(folder: vscode.Uri): Promise<void> {
    return this.write((stored) => unbindFolder(stored, folder.toString()));
  }

  unbindAccount(accountId: string): Promise<void> {
    return this.write((stored) => unbindAccount(stored, accountId));
  }

  rename(accountId: string, orderId: string, name: string): Promise<void> {
    return this.write((stored) => renameBound(stored, accountId, orderId, name));
  }

  accountIds(): Set<string> {
    return new Set(this.stored().folders.map((entry) => entry.accountId));
  }

  wasSuggested(folder: vscode.Uri, kind: SuggestionKind, accountId?: string): boolean {
    return wasSuggested(readSuggestions(this.memento.get(FOLDER_SUGGESTIONS_KEY)), folder.toString(), kind, accountId);
  }

  async noteSuggested(folder: vscode.Uri, kind: SuggestionKind, accountId?: string): Promise<void> {
    const stored = readSuggestions(this.memento.get(FOLDER_SUGGESTIONS_KEY));
    await this.memento.update(
      FOLDER_SUGGESTIONS_KEY,
      noteSuggested(stored, folder.toString(), kind, accountId, this.now()),
    );
  }

  private stored(): StoredBindings {
    return readBindings(this.memento.get(FOLDER_BINDINGS_KEY));
  }

  private write(change: (stored: StoredBindings) => StoredBindings): Promise<void> {
    const next = this.writes.then(async () => {
      const before = this.stored();
      const after = change(before);
      if (after === before) return;
      await this.memento.update(FOLDER_BINDINGS_KEY, after);
      this.onDidChangeEmitter.fire();
    });
    // A failed write fails its caller; the next one still runs.
    this.writes = next.catch(() => undefined);
    return next;
  }

  private editorFolder(): vscode.WorkspaceFolder | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri && vscode.workspace.getWorkspaceFolder(uri);
  }
}
