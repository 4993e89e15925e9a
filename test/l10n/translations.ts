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

/** The text a translator words: the kept parts (placeholders, codicons, link targets, code spans) taken out. */
export function wordedPart(text: string): string {
  return text.replace(/\{\d+\}|\$\([\w~-]+\)|\]\([^)]*\)|`[^`]*`|#[\w.]+#/g, ' ');
}

/**
 * The terms a glossary (`l10n/glossary/<lang>.json`) gives its words for, as the English names them. Every language
 * gives the first six; the VS Code terms after them where that language needs them held.
 */
export const TERMS: Readonly<Record<string, RegExp>> = {
  refresh: /\brefresh/i,
  renewal: /\brenew/i,
  server: /\bservers?\b/i,
  balance: /\bbalance/i,
  protected: /\b(?:un)?protect/i,
  pin: /\b(?:un)?pin\b/i,
  'Restricted Mode': /\brestricted mode\b/i,
  filter: /\bfilter/i,
  'sign in': /\bsign(?:ed|ing)? in\b/i,
  'sign out': /\bsign(?:ed|ing)? (?:it )?out\b/i,
  // Old host keys are removed (ssh-keygen -R), which "forget" says in English only.
  'forget (host keys)': /\bforg[eo]t/i,
  // Not the product name, Hosting Account.
  hosting: /\b[Hh]osting (?:account|API)\b/,
};
export const REQUIRED_TERMS = ['refresh', 'renewal', 'server', 'balance', 'protected', 'pin'] as const;

/** A language's words for the terms: each the beginnings of its forms, lower case (one of them must appear). */
export type Glossary = Readonly<Record<string, readonly string[]>>;

export function glossaryOf(lang: string): Glossary {
  return JSON.parse(fs.readFileSync(path.join(l10nDir, 'glossary', `${lang}.json`), 'utf8')) as Glossary;
}

/** Every English string of both files with its translation (missing ones left out), kept parts taken out of both. */
export function pairsOf(lang: string): { english: string; translated: string }[] {
  return (['bundle', 'nls'] as const).flatMap((kind) => {
    const source = english(kind);
    const translated = readStrings(fileOf(kind, lang)) ?? {};
    return Object.entries(source)
      .filter(([key]) => key in translated)
      .map(([key, text]) => ({ english: wordedPart(text), translated: wordedPart(translated[key] ?? '') }));
  });
}

export const namesTerm = (term: string, englishText: string): boolean => TERMS[term]?.test(englishText) ?? false;

export function usesWord(lang: string, forms: readonly string[], translated: string): boolean {
  const text = translated.toLocaleLowerCase(lang);
  return forms.some((form) => text.includes(form));
}

/** Translations that do not use the glossary's word for a term their English names. */
export function termsNotUsed(lang: string, glossary: Glossary, pairs = pairsOf(lang)): string[] {
  return Object.entries(glossary).flatMap(([term, forms]) =>
    pairs
      .filter(({ english: text, translated }) => namesTerm(term, text) && !usesWord(lang, forms, translated))
      .map(({ english: text, translated }) => `${term}: "${text}" → "${translated}"`),
  );
}

/**
 * Where refresh and renewal run together: a word of one inside the other's, a string about one that uses the other's
 * word, or one translation standing for an English string about one and another that is not about it.
 */
export function refreshIsRenewal(lang: string, glossary: Glossary, pairs = pairsOf(lang)): string[] {
  const [refresh, renewal] = [glossary.refresh ?? [], glossary.renewal ?? []];
  const found = refresh.flatMap((a) =>
    renewal.filter((b) => a.includes(b) || b.includes(a)).map((b) => `one word for both: "${a}", "${b}"`),
  );
  for (const { english: text, translated } of pairs) {
    const [isRefresh, isRenewal] = [namesTerm('refresh', text), namesTerm('renewal', text)];
    if (isRefresh && !isRenewal && usesWord(lang, renewal, translated)) found.push(`refresh as renewal: "${text}" → "${translated}"`);
    if (isRenewal && !isRefresh && usesWord(lang, refresh, translated)) found.push(`renewal as refresh: "${text}" → "${translated}"`);
  }
  const about = (text: string): string => `${namesTerm('refresh', text)}/${namesTerm('renewal', text)}`;
  const seen = new Map<string, string>();
  for (const { english: text, translated } of pairs) {
    const other = seen.get(translated);
    if (other !== undefined && about(other) !== about(text)) found.push(`"${other}" and "${text}" both → "${translated}"`);
    seen.set(translated, text);
  }
  return found;
}

/** Columns a text takes: East Asian wide and full-width characters take two. */
export function width(text: string): number {
  let columns = 0;
  for (const char of text) {
    columns += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(char) ? 2 : 1;
  }
  return columns;
}

/** The most columns a status-bar word may take: what English takes, with room to grow by 60 %, and 10 at least. */
export const statusBarBound = (englishText: string): number => Math.max(10, Math.ceil(width(englishText) * 1.6));

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
