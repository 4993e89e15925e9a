/**
 * A reversible pseudo-translation: every ASCII letter becomes an accented one and the whole text is wrapped in
 * ⟦ ⟧. Placeholders (`{0}`), codicons (`$(key)`), link targets (`](command:…)`) and code spans (`` `x` ``) are kept
 * as they are, so the pseudo strings work exactly like the English ones. Any plain ASCII word left on screen in the
 * pseudo-locale therefore did not come through l10n.
 */
const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'áƀćďéƒĝĥíĵķĺḿńóƥʠŕśţúṽŵẋýźÁƁĆĎÉƑĜĤÍĴĶĹḾŃÓƤɊŔŚŢÚṼŴẊÝŹ';

export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

const toAccented = new Map<string, string>();
const toPlain = new Map<string, string>();
[...PLAIN].forEach((plain, index) => {
  const accented = [...ACCENTED][index] ?? plain;
  toAccented.set(plain, accented);
  toPlain.set(accented, plain);
});

/** The parts a translation must keep verbatim. Each alternative is linear: no nested quantifiers. */
const KEEP = /\{\d+\}|\$\([\w~-]+\)|\]\([^)]*\)|`[^`]*`/g;

function mapLetters(text: string, table: ReadonlyMap<string, string>): string {
  return [...text].map((c) => table.get(c) ?? c).join('');
}

function mapOutsideKept(text: string, table: ReadonlyMap<string, string>): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(KEEP)) {
    result += mapLetters(text.slice(last, match.index), table) + match[0];
    last = match.index + match[0].length;
  }
  return result + mapLetters(text.slice(last), table);
}

export function pseudo(text: string): string {
  return `${PSEUDO_OPEN}${mapOutsideKept(text, toAccented)}${PSEUDO_CLOSE}`;
}

export function unpseudo(text: string): string {
  const inner = text.startsWith(PSEUDO_OPEN) && text.endsWith(PSEUDO_CLOSE) ? text.slice(1, -1) : text;
  return mapOutsideKept(inner, toPlain);
}
