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
  glossaryOf,
  keptParts,
  LANGUAGES,
  l10nDir,
  nothingToTranslate,
  pairsOf,
  presentLanguages,
  readRecords,
  readStrings,
  refreshIsRenewal,
  REQUIRED_TERMS,
  root,
  sameAsEnglish,
  statusBarBound,
  TERMS,
  termsNotUsed,
  width,
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

let parsed: ts.SourceFile[] | undefined;
/** Every file of src/, parsed once for all the checks that read the code. */
function parsedSources(): ts.SourceFile[] {
  parsed ??= sources(join(root, 'src')).map((file) =>
    ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true),
  );
  return parsed;
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
function gluedTranslations(source: ts.SourceFile): string[] {
  const file = source.fileName;
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
      parsedSources().flatMap((source) => gluedTranslations(source)),
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
      gluedTranslations(ts.createSourceFile('sample.ts', code, ts.ScriptTarget.ES2022, true)).map((line) =>
        line.replace(/^sample\.ts:\d+: /, ''),
      ),
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

/** The files whose status-bar items show text, and the functions of src/ by name, to follow what that text is made of. */
const STATUS_BAR_FILES = ['src/views/BalanceStatusBar.ts', 'src/views/FolderServerItem.ts'];

/**
 * The English of every translated string a status-bar item's `text` is made of: the `l10n.t` calls in what is assigned
 * to it, in the constants it reads and in the functions it calls (in any file of src/), followed through.
 */
function statusBarWords(sources: readonly ts.SourceFile[] = parsedSources()): string[] {
  const functions = new Map<string, { body: ts.Node; source: ts.SourceFile }[]>();
  const constants = new Map<ts.SourceFile, Map<string, ts.Node[]>>();
  for (const source of sources) {
    const mine = new Map<string, ts.Node[]>();
    constants.set(source, mine);
    const collect = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) && node.name && node.body) {
        functions.set(node.name.text, [...(functions.get(node.name.text) ?? []), { body: node.body, source }]);
      }
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        mine.set(node.name.text, [...(mine.get(node.name.text) ?? []), node.initializer]);
      }
      ts.forEachChild(node, collect);
    };
    collect(source);
  }
  const words = new Set<string>();
  const followed = new Set<ts.Node>();
  const follow = (node: ts.Node, source: ts.SourceFile): void => {
    if (followed.has(node)) return;
    followed.add(node);
    if (isL10nCall(node)) {
      const [message] = node.arguments;
      if (message && ts.isStringLiteralLike(message)) words.add(message.text);
      return;
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      for (const fn of functions.get(node.expression.text) ?? []) follow(fn.body, fn.source);
    }
    const member = ts.isPropertyAccessExpression(node.parent) && node.parent.name === node;
    if (ts.isIdentifier(node) && !member) {
      for (const value of constants.get(source)?.get(node.text) ?? []) follow(value, source);
    }
    ts.forEachChild(node, (child) => follow(child, source));
  };
  for (const source of sources.filter((file) => STATUS_BAR_FILES.some((name) => file.fileName.endsWith(name)))) {
    const visit = (node: ts.Node): void => {
      const assigns =
        ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.EqualsToken, ts.SyntaxKind.PlusEqualsToken].includes(node.operatorToken.kind) &&
        ts.isPropertyAccessExpression(node.left) &&
        node.left.name.text === 'text';
      if (assigns) follow(node.right, source);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...words].sort();
}

/** Each language's habit for the punctuation VS Code's pack writes differently from English. */
const PUNCTUATION: Partial<Record<string, { rule: string; wrong: RegExp }>> = {
  fr: { rule: 'a no-break space before : ; ? !', wrong: /(?:[^\s(]|[^\S\u00a0\u202f])[:;?!]/u },
  'zh-cn': {
    rule: 'half-width ": " before a value, full-width ，； in Chinese text',
    wrong: /：|[\u4e00-\u9fff][,;]/u,
  },
  'zh-tw': {
    rule: 'half-width ": " before a value, full-width ，； in Chinese text',
    wrong: /：|[\u4e00-\u9fff][,;]/u,
  },
  ja: {
    rule: 'half-width ": ", "?" and "( )", full-width 、。 in Japanese text',
    wrong: /[：？（）]|[\u3040-\u30ff\u4e00-\u9fff][,.]/u,
  },
  ru: { rule: 'е, never ё (as VS Code writes)', wrong: /ё/iu },
};

describe('words a native reader trusts (unit)', function () {
  this.timeout(30_000);

  it('finds the status-bar words, and the states and actions the folder item shows', () => {
    const words = statusBarWords();
    for (const word of ['Gone', 'Balance unavailable', 'Hosting: key rejected', 'Running', 'Stopping…']) {
      assert.ok(words.includes(word), `${word} in ${words.join(', ')}`);
    }
    assert.ok(!words.includes('Click for the account summary.'), 'a tooltip line is not a status-bar word');
  });

  it('measures a status-bar word in columns, East Asian characters taking two', () => {
    assert.equal(width('Gone'), 4);
    assert.equal(width('存在しません'), 12);
    assert.equal(statusBarBound('Gone'), 10);
    assert.equal(statusBarBound('Balance unavailable'), 31);
  });

  it('gives every language a glossary of the terms that matter, in lower case', () => {
    for (const lang of LANGUAGES) {
      const glossary = glossaryOf(lang);
      assert.deepEqual(
        REQUIRED_TERMS.filter((term) => !glossary[term]?.length),
        [],
        `l10n/glossary/${lang}.json`,
      );
      for (const [term, forms] of Object.entries(glossary)) {
        assert.ok(term in TERMS, `${lang}: ${term} is not one of the terms the check knows`);
        for (const form of forms) assert.equal(form, form.toLocaleLowerCase(lang), `${lang}: ${term}`);
      }
    }
  });

  it('tells refresh from renewal where one word stands for both, and a shared translation', () => {
    const pairs = [
      { english: 'The last refresh failed: ', translated: '前回の更新に失敗しました: ' },
      { english: 'Updated at ', translated: ' に更新' },
      { english: 'Renews ', translated: ' に更新' },
    ];
    const oneWord = { refresh: ['更新'], renewal: ['更新'] };
    assert.ok(refreshIsRenewal('ja', oneWord, pairs).some((line) => line.startsWith('one word for both')));
    const twoWords = { refresh: ['最新の情報', '情報の更新'], renewal: ['契約更新'] };
    assert.deepEqual(refreshIsRenewal('ja', twoWords, pairs), ['"Updated at " and "Renews " both → " に更新"']);
    assert.deepEqual(termsNotUsed('ja', twoWords, pairs), [
      'refresh: "The last refresh failed: " → "前回の更新に失敗しました: "',
      'renewal: "Renews " → " に更新"',
    ]);
  });

  const statusWords = statusBarWords();
  for (const lang of LANGUAGES) {
    describe(lang, () => {
      it(`uses the word of l10n/glossary/${lang}.json wherever the English names its term`, () => {
        assert.deepEqual(termsNotUsed(lang, glossaryOf(lang)), []);
      });

      it('has two words for refresh and renewal', () => {
        assert.deepEqual(refreshIsRenewal(lang, glossaryOf(lang)), []);
      });

      it('keeps every status-bar word within its width (English × 1.6, 10 columns at least)', () => {
        const translated = readStrings(fileOf('bundle', lang)) ?? {};
        const wide = statusWords
          .map((word) => ({ word, text: translated[word] ?? word }))
          .filter(({ word, text }) => width(text) > statusBarBound(word))
          .map(({ word, text }) => `${word} → ${text} (${width(text)} > ${statusBarBound(word)})`);
        assert.deepEqual(wide, []);
      });

      const punctuation = PUNCTUATION[lang];
      if (punctuation) {
        it(`writes punctuation as its other strings do: ${punctuation.rule}`, () => {
          const wrong = pairsOf(lang)
            .map(({ translated }) => translated.replace(/\bhttps?:\/\/\S*|\(\?…\)/g, ' '))
            .filter((text) => punctuation.wrong.test(text));
          assert.deepEqual(wrong, []);
        });
      }
    });
  }
});
