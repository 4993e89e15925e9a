import * as vscode from 'vscode';

import { API_KEY_SECRET } from './secretNames';

export { API_KEY_SECRET, DEFAULT_ACCOUNT_ID, secretNameOf } from './secretNames';

export class KeyStoreError extends Error {
  override readonly name = 'KeyStoreError';

  constructor(
    readonly operation: 'read' | 'save' | 'remove',
    readonly detail: string,
  ) {
    super(`secret storage ${operation} failed: ${detail}`);
  }
}

// No fallback to settings or files when SecretStorage fails: the user is told instead.
export class KeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  private cached?: Promise<string | undefined>;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly secretName: string = API_KEY_SECRET,
  ) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key !== this.secretName) return;
      this.cached = undefined;
      this.emitter.fire();
    });
  }

  // Cached until it changes: every request asks for it.
  get(): Promise<string | undefined> {
    this.cached ??= Promise.resolve(this.secrets.get(this.secretName)).then(
      (key) => key || undefined,
      (error: unknown) => {
        this.cached = undefined;
        throw new KeyStoreError('read', describe(error));
      },
    );
    return this.cached;
  }

  async store(key: string): Promise<void> {
    try {
      await this.secrets.store(this.secretName, key);
    } catch (error) {
      throw new KeyStoreError('save', describe(error));
    } finally {
      this.cached = undefined;
    }
  }

  async delete(): Promise<void> {
    try {
      await this.secrets.delete(this.secretName);
    } catch (error) {
      throw new KeyStoreError('remove', describe(error));
    } finally {
      this.cached = undefined;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
