import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import * as ts from 'typescript';
import {
  english,
  englishHash,
  fileOf,
  gaps,
  gapsOf,
  keptParts,
  LANGUAGES,
  l10nDir,
  nothingToTranslate,
  presentLanguages,
  readRecords,
  readStrings,
  root,
  sameAsEnglish,
} from '../l10n/translations';

describe('translations (unit)', function () {
  this.timeout(30_000);

  it('has only core languages, each with both files (run `npm run l10n:missing -- <lang>` to start one)', () => {
    const files = readdirSync(l10nDir).filter((file) => /^bundle\.l10n\..+\.json$/.test(file));
    const named = files.map((file) => file.slice('bundle.l10n.'.length, -'.json'.length));
    const stray = named.filter((lang) => lang !== 'qps-ploc' && !(LANGUAGES as readonly string[]).includes(lang));
    assert.deepEqual(stray, [], 'a bundle for a language that is not one of VS Code core display languages');
    for (const lang of LANGUAGES) {
      assert.ok(readStrings(fileOf('bundle', lang)), `l10n/bundle.l10n.${lang}.json is missing`);
      assert.ok(readStrings(fileOf('nls', lang)), `package.nls.${lang}.json is missing`);
    }
  });

  // VS Code's thirteen core languages ship complete.
  for (const lang of LANGUAGES) {
    describe(lang, () => {
      for (const kind of ['bundle', 'nls'] as const) {
        const file = kind === 'bundle' ? `l10n/bundle.l10n.${lang}.json` : `package.nls.${lang}.json`;

        it(`${file}: every English key, no other, none stale (npm run l10n:missing, l10n:prune)`, () => {
          const { missing, stale, extra } = gapsOf(kind, lang);
          assert.deepEqual(missing, [], `${missing.length} keys missing`);
          assert.deepEqual(extra, [], `${extra.length} keys English no longer has`);
          assert.deepEqual(stale, [], `${stale.length} keys translated from an English text that has changed`);
        });

        it(`${file}: placeholders, codicons, link targets and code spans kept one for one`, () => {
          const source = english(kind);
          const translated = readStrings(fileOf(kind, lang)) ?? {};
          const wrong = Object.entries(translated).filter(
            ([key, text]) => key in source && keptParts(text).join('\n') !== keptParts(source[key] ?? '').join('\n'),
          );
          assert.deepEqual(wrong, []);
        });

        it(`${file}: nothing left in English but what l10n/same-as-english.json allows`, () => {
          const source = english(kind);
          const allowed = sameAsEnglish(lang);
          const translated = readStrings(fileOf(kind, lang)) ?? {};
          const untranslated = Object.entries(translated)
            .filter(([key, text]) => text === source[key] && !allowed.has(key) && !nothingToTranslate(text))
            .map(([key]) => key);
          assert.deepEqual(untranslated, []);
          const empty = Object.entries(translated).filter(([, text]) => !text.trim());
          assert.deepEqual(empty, []);
        });
      }
    });
  }

  it('records, for every manifest translation, the English it was made from', () => {
    const records = readRecords();
    for (const lang of presentLanguages()) {
      const record = records[lang] ?? {};
      const unrecorded = Object.keys(readStrings(fileOf('nls', lang)) ?? {}).filter((key) => !(key in record));
      assert.deepEqual(unrecorded, [], `${lang}: run npm run l10n:record -- ${lang}`);
    }
  });

  it('marks a translation for review when its English changes: a manifest id is stale, a bundle key is missing', () => {
    const before = { 'cmd.refresh': 'Refresh Servers' };
    const record = { 'cmd.refresh': englishHash(before['cmd.refresh']) };
    const translated = { 'cmd.refresh': 'Server aktualisieren' };
    assert.deepEqual(gaps(before, translated, record), { missing: [], stale: [], extra: [] });
    const changed = { 'cmd.refresh': 'Refresh Servers, Balance and Invoices' };
    assert.deepEqual(gaps(changed, translated, record), { missing: [], stale: ['cmd.refresh'], extra: [] });
    assert.deepEqual(gaps({ 'Refresh all': 'Refresh all' }, { Refresh: 'Aktualisieren' }), {
      missing: ['Refresh all'],
      stale: [],
      extra: ['Refresh'],
    });
  });

  it('ships every core language with the extension, and never the pseudo-locale', () => {
    const lines = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    for (const lang of LANGUAGES) {
      assert.ok(lines.includes(`!l10n/bundle.l10n.${lang}.json`), `.vscodeignore ships l10n/bundle.l10n.${lang}.json`);
      assert.ok(lines.includes(`!package.nls.${lang}.json`), `.vscodeignore ships package.nls.${lang}.json`);
    }
    assert.ok(!lines.some((line) => line.startsWith('!') && /qps-ploc|\*\.json/.test(line)), lines.join('\n'));
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : extname(entry.name) === '.ts' ? [path] : [];
  });
}

/** Marks around a translated string that are not words: a codicon, Markdown emphasis, a heading, a list item, a link. */
const DECORATION = /^(?:[\s()[\]·]|\$\([\w~-]+\)|\*\*?|#+ |- )*$/u;

function isL10nCall(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && /(?:^|\.)l10n\.t$/.test(node.expression.getText());
}

/**
 * Translated text glued to other text: `l10n.t(…) + more`, or a template that puts words, sentence punctuation or a
 * bare space between a translated string and another value. Each message must be one translatable string.
 */
function gluedTranslations(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const where = (node: ts.Node): string =>
    `${file.startsWith(root) ? file.slice(root.length + 1) : file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) {
      // `l10n.t(…).trim()` is still the translated text.
      let value: ts.Node = node;
      while (ts.isPropertyAccessExpression(value.parent) && ts.isCallExpression(value.parent.parent)) {
        value = value.parent.parent;
      }
      const parent = value.parent;
      if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        found.push(`${where(node)}: ${parent.getText()}`);
      }
      if (ts.isTemplateSpan(parent)) {
        const template = parent.parent;
        const literals = [template.head.text, ...template.templateSpans.map((span) => span.literal.text)];
        const others = template.templateSpans.length > 1;
        const wordy = literals.some((literal) => !DECORATION.test(literal));
        const bareSpace = others && literals.some((literal) => /^\s+$/.test(literal));
        // `${l10n.t(…)}${more}`: another value run on with nothing between.
        const runOn = template.templateSpans.slice(0, -1).some((span) => span.literal.text === '');
        if (wordy || bareSpace || runOn) found.push(`${where(node)}: ${template.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('one translatable string per message (unit)', function () {
  this.timeout(30_000);

  it('never glues a translated string to other words, punctuation or another value', () => {
    assert.deepEqual(
      sources(join(root, 'src')).flatMap((file) => gluedTranslations(file)),
      [],
    );
  });

  it('finds the glued forms it looks for, and lets a codicon, Markdown or a list separator through', () => {
    const code = [
      "const a = vscode.l10n.t('The action failed.') + said;",
      "const b = `${part} ${vscode.l10n.t('The rest was not read.')}`;",
      "const c = `${vscode.l10n.t('Not valid.')} ${hint}`;",
      "const d = `${vscode.l10n.t('Caveat')}.`;",
      "const e = `$(warning) ${vscode.l10n.t('Balance unavailable')}`;",
      "const f = `## ${vscode.l10n.t('Unpaid invoices')}`;",
      "const g = `[${vscode.l10n.t('Pay')}](${link})`;",
      "const h = `$(folder) ${vscode.l10n.t('this folder')} · ${state}`;",
      "const i = vscode.l10n.t('{0} and {1} more', list, count);",
      "const j = `${vscode.l10n.t('{0} sent {1}', action, source).trim()}: ${answer}`;",
      "const k = `${vscode.l10n.t('No longer in the account')}${seen}`;",
    ].join('\n');
    assert.deepEqual(
      gluedTranslations('sample.ts', code).map((line) => line.replace(/^sample\.ts:\d+: /, '')),
      [
        "vscode.l10n.t('The action failed.') + said",
        "`${part} ${vscode.l10n.t('The rest was not read.')}`",
        "`${vscode.l10n.t('Not valid.')} ${hint}`",
        "`${vscode.l10n.t('Caveat')}.`",
        "`${vscode.l10n.t('{0} sent {1}', action, source).trim()}: ${answer}`",
        "`${vscode.l10n.t('No longer in the account')}${seen}`",
      ],
    );
  });
});
