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

const NAMESPACE = "import * as vscode from 'vscode';";
const TYPE_ONLY = "import type * as vscode from 'vscode';";

/**
 * The source as l10n-dev reads it, in as few pieces as it gives the same strings: l10n-dev compiles its queries again
 * for every file (about 0.1 s each, minutes on a loaded machine), so the files that import vscode the one usual way are
 * read as one, under that one import. A file that names vscode or @vscode/l10n any other way is read on its own.
 */
export function l10nInputs(
  files: readonly { path: string; text: string }[],
): { contents: string; extension: string }[] {
  const usual = (text: string): boolean =>
    text
      .split('\n')
      .filter((line) => /from ['"](?:vscode|@vscode\/l10n)['"]|require\(['"](?:vscode|@vscode\/l10n)['"]\)/.test(line))
      .every((line) => line === NAMESPACE || line === TYPE_ONLY);
  const joined = files.filter((file) => usual(file.text));
  const alone = files.filter((file) => !usual(file.text));
  const body = joined.map((file) =>
    file.text
      .split('\n')
      .filter((line) => line !== NAMESPACE && line !== TYPE_ONLY)
      .join('\n'),
  );
  return [
    { contents: [NAMESPACE, ...body].join('\n'), extension: '.ts' },
    ...alone.map((file) => ({ contents: file.text, extension: '.ts' })),
  ];
}

describe('localisation (unit)', function () {
  this.timeout(30_000);

  it('has every vscode.l10n.t string of the source in l10n/bundle.l10n.json (run `npm run l10n` after changing them)', async () => {
    const files = sources(join(root, 'src')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    const extracted = await getL10nJson(l10nInputs(files));
    const bundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(bundle).sort(), Object.keys(extracted).sort());
  });

  it('reads the files joined as l10n-dev reads them one by one', async () => {
    const files = [
      { path: 'a.ts', text: `${NAMESPACE}\nexport const a = vscode.l10n.t('One {0}', 1);` },
      {
        path: 'b.ts',
        text: `${TYPE_ONLY}\n${NAMESPACE}\nconst b = vscode.l10n.t({ message: 'Two', comment: ['c'] });`,
      },
      { path: 'c.ts', text: "import { l10n as words } from 'vscode';\nconst c = words.t('Three');" },
      { path: 'd.ts', text: 'export const d = 4;' },
    ];
    const separately = await getL10nJson(files.map((file) => ({ contents: file.text, extension: '.ts' })));
    const inputs = l10nInputs(files);
    assert.equal(inputs.length, 2, 'a, b and d joined; c, with an import of its own, alone');
    assert.deepEqual(await getL10nJson(inputs), separately);
    assert.deepEqual(Object.keys(separately).sort(), ['One {0}', 'Three', 'Two/c']);
  });
});
