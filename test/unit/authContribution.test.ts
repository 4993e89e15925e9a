import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: Record<string, unknown>;
};

describe('the Accounts menu provider in the manifest (unit)', () => {
  it('is not declared in contributes.authentication, so every supported VS Code lets users disable us per workspace', () => {
    // Declaring it made VS Code refuse to disable the extension per workspace until mid-2026 (1.139 still refuses
    // when the provider is the default account provider or used by Settings Sync); our engine reaches back further.
    assert.match(manifest.engines.vscode, /^\^1\.96\./);
    assert.equal(manifest.contributes.authentication, undefined);
  });
});
