/**
 * The translations of the extension: `l10n/bundle.l10n.<lang>.json` (keyed by the English text, so an English change
 * is a new key) and `package.nls.<lang>.json` (keyed by id, so `l10n/translated-from.json` keeps a hash of the English
 * each translation was made from). Checked by test/unit/translations.test.ts; the command line fills the gaps:
 *
 *   npm run l10n:missing [-- <lang>…]   lists, per language, what is missing or stale, as JSON to translate
 *   npm run l10n:prune                  removes stale translations (and their records): they become missing
 *   npm run l10n:record [-- <lang>… <key>…]  records the English the manifest translations were made from (new
 *                                       ones, and the keys named: a stale one reviewed in place)
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** VS Code's core display languages, as its language packs name them. */
export const LANGUAGES = ['fr', 'it', 'de', 'es', 'ru', 'zh-cn', 'zh-tw', 'ja', 'ko', 'cs', 'pt-br', 'tr', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

export const root = path.resolve(__dirname, '..', '..', '..');
export const l10nDir = path.join(root, 'l10n');
const recordFile = path.join(l10nDir, 'translated-from.json');
const sameFile = path.join(l10nDir, 'same-as-english.json');

export type Strings = Record<string, string>;
export type Kind = 'bundle' | 'nls';

export function fileOf(kind: Kind, lang?: string): string {
  const suffix = lang ? `.${lang}` : '';
  return kind === 'bundle' ? path.join(l10nDir, `bundle.l10n${suffix}.json`) : path.join(root, `package.nls${suffix}.json`);
}

export function readStrings(file: string): Strings | undefined {
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Strings;
}

function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export const english = (kind: Kind): Strings => readStrings(fileOf(kind)) ?? {};

/** A short hash of an English text: what a manifest translation was made from. */
export function englishHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export type Records = Partial<Record<string, Record<string, string>>>;
export const readRecords = (): Records => (readStrings(recordFile) as Records | undefined) ?? {};

/** Keys whose value may equal the English one in every language (`*`) or in one. */
export function sameAsEnglish(lang: string): ReadonlySet<string> {
  const lists = (JSON.parse(fs.readFileSync(sameFile, 'utf8')) as Record<string, string[]>) ?? {};
  return new Set([...(lists['*'] ?? []), ...(lists[lang] ?? [])]);
}

/** What a translation must keep as it is: placeholders, codicons, link targets, code spans, setting links. */
export function keptParts(text: string): string[] {
  return (text.match(/\{\d+\}|\$\([\w~-]+\)|\]\([^)]*\)|`[^`]*`|#[\w.]+#/g) ?? []).sort();
}

/** Text with nothing to translate: no letter left once the kept parts are taken out. */
export function nothingToTranslate(text: string): boolean {
  return !/\p{L}/u.test(text.replace(/\{\d+\}|\$\([\w~-]+\)|\]\([^)]*\)|`[^`]*`|#[\w.]+#/g, ''));
}

export interface Gaps {
  /** English keys with no translation (or, in the manifest, one made from another English text). */
  readonly missing: string[];
  /** Manifest keys translated from an English text that has changed since: to review. */
  readonly stale: string[];
  /** Translated keys English no longer has (a bundle key whose English changed ends up here). */
  readonly extra: string[];
}

export function gapsOf(kind: Kind, lang: string): Gaps {
  const record = kind === 'nls' ? (readRecords()[lang] ?? {}) : undefined;
  return gaps(english(kind), readStrings(fileOf(kind, lang)) ?? {}, record);
}

/** `record`: the hash of the English each translation was made from, for strings keyed by id (the manifest). */
export function gaps(source: Strings, translated: Strings, record?: Readonly<Record<string, string>>): Gaps {
  const stale = record
    ? Object.keys(translated).filter((key) => key in source && record[key] !== englishHash(source[key] ?? ''))
    : [];
  return {
    missing: Object.keys(source).filter((key) => !(key in translated)),
    stale,
    extra: Object.keys(translated).filter((key) => !(key in source)),
  };
}

/** The languages whose files exist (either of the two), among the core ones. */
export function presentLanguages(): Language[] {
  return LANGUAGES.filter((lang) => fs.existsSync(fileOf('bundle', lang)) || fs.existsSync(fileOf('nls', lang)));
}

function missing(langs: readonly string[]): void {
  const out: Record<string, unknown> = {};
  for (const lang of langs) {
    const entry: Record<string, unknown> = {};
    for (const kind of ['bundle', 'nls'] as const) {
      const source = english(kind);
      const translated = readStrings(fileOf(kind, lang)) ?? {};
      const { missing: absent, stale, extra } = gapsOf(kind, lang);
      const todo = Object.fromEntries([...absent, ...stale].map((key) => [key, source[key]]));
      if (Object.keys(todo).length) entry[`${path.basename(fileOf(kind, lang))}: to translate`] = todo;
      const old = Object.fromEntries(
        [...stale, ...extra].map((key) => [key, translated[key]]),
      );
      if (Object.keys(old).length) entry[`${path.basename(fileOf(kind, lang))}: stale translations`] = old;
    }
    out[lang] = Object.keys(entry).length ? entry : 'complete';
  }
  console.log(JSON.stringify(out, null, 2));
}

function prune(langs: readonly string[]): void {
  const records = readRecords();
  for (const lang of langs) {
    for (const kind of ['bundle', 'nls'] as const) {
      const file = fileOf(kind, lang);
      const translated = readStrings(file);
      if (!translated) continue;
      const { stale, extra } = gapsOf(kind, lang);
      const drop = new Set([...stale, ...extra]);
      if (!drop.size) continue;
      writeJson(file, Object.fromEntries(Object.entries(translated).filter(([key]) => !drop.has(key))));
      const record = records[lang];
      if (kind === 'nls' && record) for (const key of drop) delete record[key];
      console.log(`${path.relative(root, file)}: removed ${drop.size} stale`);
    }
  }
  writeJson(recordFile, records);
}

/**
 * Records the English each manifest translation was made from: every translation with no record yet, and the `keys`
 * named (a stale translation reviewed and kept or corrected in place).
 */
function record(langs: readonly string[], keys: readonly string[]): void {
  const records = readRecords();
  const source = english('nls');
  for (const lang of langs) {
    const translated = readStrings(fileOf('nls', lang));
    if (!translated) continue;
    const entry = (records[lang] ??= {});
    for (const key of Object.keys(translated)) {
      if (key in source && (!(key in entry) || keys.includes(key))) entry[key] = englishHash(source[key] ?? '');
    }
  }
  const sorted = Object.entries(records)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([lang, entry]) => [lang, Object.fromEntries(Object.entries(entry ?? {}).sort(([a], [b]) => a.localeCompare(b)))]);
  writeJson(recordFile, Object.fromEntries(sorted));
}

if (require.main === module) {
  const [command, ...rest] = process.argv.slice(2);
  const named = rest.filter((arg) => (LANGUAGES as readonly string[]).includes(arg));
  const keys = rest.filter((arg) => !named.includes(arg));
  const langs = named.length ? named : presentLanguages();
  if (command === 'missing') missing(langs);
  else if (command === 'prune') prune(langs);
  else if (command === 'record') record(langs, keys);
  else {
    console.error(`usage: translations.js missing|prune|record [lang…] [manifest key…] (languages: ${LANGUAGES.join(', ')})`);
    process.exit(1);
  }
}
