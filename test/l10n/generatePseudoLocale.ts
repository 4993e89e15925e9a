/**
 * `npm run l10n:pseudo`: writes l10n/bundle.l10n.qps-ploc.json and package.nls.qps-ploc.json from the English
 * bundles (see ./pseudo.ts). They are generated for the pseudo-locale test run, never committed or shipped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pseudo } from './pseudo';

export const PSEUDO_LOCALE = 'qps-ploc';

const root = path.resolve(__dirname, '..', '..', '..');

function translate(source: string, target: string): number {
  const english = JSON.parse(fs.readFileSync(path.join(root, source), 'utf8')) as Record<string, string>;
  const translated = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, pseudo(text)]));
  fs.writeFileSync(path.join(root, target), `${JSON.stringify(translated, null, 2)}\n`);
  return Object.keys(translated).length;
}

if (require.main === module) {
  const strings = translate(path.join('l10n', 'bundle.l10n.json'), path.join('l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`));
  const manifest = translate('package.nls.json', `package.nls.${PSEUDO_LOCALE}.json`);
  console.log(`pseudo-locale ${PSEUDO_LOCALE}: ${strings} code strings, ${manifest} manifest strings`);
}
