import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

const root = join(__dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : extname(entry.name) === '.ts' ? [path] : [];
  });
}

describe('localisation (unit)', function () {
  this.timeout(30_000);

  it('has every vscode.l10n.t string of the source in l10n/bundle.l10n.json (run `npm run l10n` after changing them)', async () => {
    const files = sources(join(root, 'src')).map((file) => ({
      contents: readFileSync(file, 'utf8'),
      extension: '.ts',
    }));
    const extracted = await getL10nJson(files);
    const bundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(bundle).sort(), Object.keys(extracted).sort());
  });
});
