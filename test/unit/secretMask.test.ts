import assert from 'node:assert/strict';
import fc from 'fast-check';
import { interpret } from '../../src/api/response';
import { maskSecrets, SecretMask } from '../../src/api/secretMask';
import { RUNAWAY_MS } from './helpers/catastrophe';

/** Keys as providers issue them: letters, digits and the few marks URI-encoding may or may not touch. */
const key = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~'),
  minLength: 8,
  maxLength: 40,
});

/** Text around a key: anything, but never a `*`, which the mask writes. */
const around = fc.string({ maxLength: 30 }).map((text) => text.replaceAll('*', ''));

/** How servers write a secret in a URL: `encodeURIComponent`, or a form's encoding; hex in either case. */
const percentEncoded = (secret: string, lower: boolean, form: boolean): string => {
  const encoded = form ? new URLSearchParams({ s: secret }).toString().slice(2) : encodeURIComponent(secret);
  return lower ? encoded.replace(/%[\dA-F]{2}/g, (hex) => hex.toLowerCase()) : encoded;
};

describe('the key mask (unit)', () => {
  it('masks the key as sent and percent-encoded as servers write it, upper or lower case', () => {
    fc.assert(
      fc.property(key, fc.boolean(), fc.boolean(), around, around, (secret, lower, form, before, after) => {
        for (const echo of [secret, percentEncoded(secret, lower, form)]) {
          const masked = maskSecrets(`${before} ${echo} ${after}`, [secret]);
          assert.ok(!masked.includes(echo), masked);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('masks a secret JSON-escaped as common encoders write it', () => {
    const secret = 'pa/ss+wörd<&>\'"\\';
    const echoes = [
      // JSON.stringify, serde, Jackson
      'pa/ss+wörd<&>\'\\"\\\\',
      // PHP json_encode
      'pa\\/ss+w\\u00f6rd<&>\'\\"\\\\',
      // Python json.dumps
      'pa/ss+w\\u00f6rd<&>\'\\"\\\\',
      // Go encoding/json
      'pa/ss+wörd\\u003c\\u0026\\u003e\'\\"\\\\',
      // .NET System.Text.Json
      'pa/ss\\u002Bw\\u00F6rd\\u003C\\u0026\\u003E\\u0027\\u0022\\\\',
    ];
    for (const echo of echoes) {
      const masked = maskSecrets(`{"note":"key ${echo} echoed"}`, [secret]);
      assert.equal(masked, '{"note":"key *** echoed"}', echo);
      assert.equal((JSON.parse(masked) as { note: string }).note, 'key *** echoed');
    }
  });

  it('masks a secret in base64, whole and as the start of a Basic-auth echo of "key:"', () => {
    fc.assert(
      fc.property(key, around, (secret, before) => {
        for (const echo of [secret, `${secret}:`, `${secret}:x`]) {
          const base64 = Buffer.from(echo).toString('base64');
          const masked = maskSecrets(`${before} Basic ${base64}`, [secret]);
          assert.ok(masked.includes('***'), masked);
          // What is left of the base64 holds at most the last two bytes of the key.
          const left = masked.slice(masked.lastIndexOf('***') + 3);
          assert.ok(left.length <= 8, `${echo}: ${masked}`);
        }
      }),
    );
  });

  it('masks a percent-encoded key in what interpret reports of a page or a JSON error', async () => {
    const secret = 'sk/live+0123456789abcdef';
    const encoded = encodeURIComponent(secret);
    const context = { method: 'GET', path: '/api/v1/orders', key: secret };
    const answer = (status: number, body: string, type: string) => ({
      status,
      body,
      headers: { 'content-type': type },
      bytes: body.length,
    });
    const cases = [
      answer(500, `<p>bad key ${encoded}</p>`, 'text/html'),
      answer(401, JSON.stringify({ error: 'unauthorized', message: `bad key ${encoded}` }), 'x/json'),
      answer(200, `oops ${encoded.toLowerCase()}`, 'text/plain'),
    ];
    for (const response of cases) {
      await assert.rejects(interpret(response, context, 0), (error: Error) => {
        const told = JSON.stringify({ ...error, message: error.message });
        assert.ok(!decodeURIComponent(told).includes(secret), told);
        assert.ok(told.includes('***'), told);
        return true;
      });
    }
  });

  it('masks a key with \\/ escapes in a JSON answer, and none is left once parsed', async () => {
    const secret = 'sk/live/0123456789abcdef';
    const body = '{"id":1,"name":"x","note":"key sk\\/live\\/0123456789abcdef"}';
    const read = await interpret(
      { status: 200, body, headers: { 'content-type': 'application/json' }, bytes: body.length },
      { method: 'GET', path: '/api/v1/orders/1', key: secret },
      0,
    );
    assert.deepEqual(read, { id: 1, name: 'x', note: 'key ***' });
  });

  it('masks a key with any of its characters JSON-escaped, mixed with plain ones (property)', () => {
    const escaped = (char: string, way: number): string => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      if (way === 1) return `\\u${hex}`;
      if (way === 2) return `\\u${hex.toUpperCase()}`;
      return way === 3 && char === '/' ? '\\/' : char;
    };
    const decode = (text: string): string =>
      text
        .replace(/\\u([\da-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        .replaceAll('\\/', '/');
    fc.assert(
      fc.property(key, fc.array(fc.nat(3)), around, around, (secret, ways, before, after) => {
        const echo = [...secret].map((char, i) => escaped(char, ways[i % (ways.length || 1)] ?? 0)).join('');
        const text = `${before.replaceAll('\\', '')} ${echo}\\n${echo} ${after.replaceAll('\\', '')}`;
        const masked = maskSecrets(text, [secret]);
        assert.ok(!decode(masked).includes(secret), masked);
        assert.ok(masked.startsWith(`${before.replaceAll('\\', '')} `) && masked.includes('***\\n***'), masked);
      }),
      { numRuns: 500 },
    );
    assert.equal(
      maskSecrets('\\\\u0073k_live_01 \\q', ['sk_live_01']),
      '\\\\u0073k_live_01 \\q',
      'an escaped backslash',
    );
  });

  it('takes linear time, even on text made to make a matcher backtrack', () => {
    const secret = `${'a'.repeat(40)}b`;
    for (const text of [
      '%61'.repeat(400_000),
      `${'a<b>'.repeat(200_000)}`,
      'a'.repeat(1_000_000),
      '\\u0061'.repeat(50_000),
    ]) {
      const started = performance.now();
      maskSecrets(text, [secret]);
      const took = performance.now() - started;
      assert.ok(took < RUNAWAY_MS, `${took} ms on ${text.slice(0, 12)}…`);
    }
  });
});

describe('a key that holds another secret', () => {
  it('is masked whole, whatever order the secrets were added in', () => {
    fc.assert(
      fc.property(key, key, around, around, (older, tail, before, after) => {
        const newer = `${older}-${tail}`;
        for (const secrets of [
          [older, newer],
          [newer, older],
        ]) {
          const masked = maskSecrets(`${before}${newer}${after}`, secrets);
          assert.ok(!masked.includes(tail), masked);
          assert.ok(!masked.includes(older), masked);
          const logged = new SecretMask();
          for (const secret of secrets) logged.add(secret);
          assert.ok(!logged.mask(`Bearer ${newer}`).includes(tail));
        }
      }),
    );
  });
});
