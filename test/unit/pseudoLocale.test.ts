import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { englishIn, serverStrings } from '../integration/pseudoLocale/leaks';
import { pseudo, unpseudo } from '../l10n/pseudo';

const root = join(__dirname, '..', '..', '..');

describe('pseudo-locale (unit)', () => {
  const bundles = [join(root, 'l10n', 'bundle.l10n.json'), join(root, 'package.nls.json')].map(
    (file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>,
  );

  it('is reversible and keeps placeholders, codicons, code spans and link targets for every string we ship', () => {
    for (const bundle of bundles) {
      for (const text of Object.values(bundle)) {
        const translated = pseudo(text);
        assert.equal(unpseudo(translated), text);
        for (const kept of text.match(/\{\d+\}|\$\([\w~-]+\)|\]\([^)]*\)/g) ?? []) {
          assert.ok(translated.includes(kept), `${kept} in ${translated}`);
        }
      }
    }
  });

  it('leaves no plain English word in a translated string', () => {
    for (const bundle of bundles) {
      for (const text of Object.values(bundle)) assert.deepEqual(englishIn(pseudo(text), []), [], text);
    }
  });

  it("finds English that bypassed l10n, but not the server's own data", () => {
    const server = serverStrings({ name: 'web-frontend-01', ip: '203.0.113.10' });
    assert.deepEqual(englishIn(`203.0.113.10 · ${pseudo('Running')}`, server), []);
    assert.deepEqual(englishIn(`web-frontend-01: ${pseudo('Stopping…')}`, server), []);
    assert.deepEqual(englishIn(`${pseudo('Last attempt failed: {0}').replace('{0}', 'connection refused')}`, server), [
      'connection',
      'refused',
    ]);
    assert.deepEqual(englishIn('$(credit-card) Balance unavailable', server), ['balance', 'unavailable']);
  });

  it('reads a time of day as formatting even when a server value is one of its digits', () => {
    const server = serverStrings({ id: 5, count: 28 });
    assert.deepEqual(englishIn(pseudo('Updated at {0}').replace('{0}', '5:28:38 PM'), server), []);
    assert.deepEqual(englishIn(`${pseudo('Updated at {0}').replace('{0}', '5:28:38 PM')} later`, server), ['later']);
  });

  it("takes a body excerpt the server sent, quoted in a message, as the server's data", () => {
    const message = pseudo('The answer could not be read: "{0}".').replace('{0}', '{"data":[{"status":"runn');
    assert.deepEqual(englishIn(message, []), []);
    assert.deepEqual(englishIn(`${message} Try again`, []), ['try', 'again']);
  });
});
