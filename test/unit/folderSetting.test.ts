import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkFolderServer,
  type FolderServerProblem,
  isKeyLike,
  MAX_FOLDER_SERVER_LENGTH,
  resolveFolderServer,
} from '../../src/folder/folderSetting';
import { type FolderServer } from '../../src/folder/suggestServer';

function server(accountId: string, orderId: string, name: string): FolderServer {
  return { accountId, orderId, name, addresses: [] };
}

describe('folder server: the team file value (unit)', () => {
  it('accepts server names and ids as they are written', () => {
    for (const value of [
      'web-01',
      'Web server (Frankfurt) #2',
      '12345',
      '3f2b8c1e-9d4a-4c1b-8e2f-0a1b2c3d4e5f',
      '507f1f77bcf86cd799439011',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'Prod: web',
      'sk-bratislava-web-01',
      'Basic plan server',
      'Akiane staging',
      'production_web_server_eu_west_01',
      'サーバー1',
      '😀 build',
      'x'.repeat(MAX_FOLDER_SERVER_LENGTH),
    ]) {
      assert.deepEqual(checkFolderServer(value), { ok: true, value }, value);
    }
  });

  it('refuses URLs, user@host, paths, keys and hidden characters, with a typed reason', () => {
    const cases: Array<[unknown, FolderServerProblem]> = [
      [undefined, 'notText'],
      [42, 'notText'],
      [{ name: 'web' }, 'notText'],
      ['', 'empty'],
      ['   ', 'empty'],
      [' web', 'surroundingSpace'],
      ['web\t', 'hiddenCharacters'],
      ['x'.repeat(MAX_FOLDER_SERVER_LENGTH + 1), 'tooLong'],
      ['x'.repeat(10_000_000), 'tooLong'],
      ['https://evil.example/api', 'url'],
      ['HTTP://evil.example', 'url'],
      ['javascript:alert(1)', 'url'],
      ['file:/etc/passwd', 'url'],
      ['command:workbench.action.quit', 'url'],
      ['ssh://root@203.0.113.5', 'url'],
      ['vscode-remote://ssh-remote+x/y', 'url'],
      ['root@203.0.113.5', 'userAtHost'],
      ['me@example.com', 'userAtHost'],
      ['/srv/app', 'path'],
      ['..\\secrets', 'path'],
      ['~/keys', 'path'],
      ['web/01', 'path'],
      ['demo-0123456789abcdef0123456789abcdef', 'keyLike'],
      ['0123456789abcdef0123456789abcdef01234567', 'keyLike'],
      ['Bearer abcdefghijklmnop1234', 'keyLike'],
      ['-----BEGIN OPENSSH PRIVATE KEY-----', 'keyLike'],
      ['sk_live_51H8xQ2KZvW', 'keyLike'],
      ['ghp_' + 'a1'.repeat(18), 'keyLike'],
      ['AKIAIOSFODNN7EXAMPLE', 'keyLike'],
      ['xoxb-123-456-abc', 'keyLike'],
      ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', 'keyLike'],
      ['web\u202e10-bew', 'hiddenCharacters'],
      ['web\u200b01', 'hiddenCharacters'],
      ['web\u0000', 'hiddenCharacters'],
      ['web\n01', 'hiddenCharacters'],
      ['web\u0085', 'hiddenCharacters'],
      ['\ud800web', 'hiddenCharacters'],
      ['web\ufeff', 'hiddenCharacters'],
    ];
    for (const [value, problem] of cases) {
      assert.deepEqual(checkFolderServer(value), { ok: false, problem }, String(JSON.stringify(value)).slice(0, 60));
    }
  });

  it('sees random tokens as keys and worded names as names (property)', () => {
    const base62 = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
    fc.assert(
      fc.property(fc.array(base62, { minLength: 40, maxLength: 64 }), (chars) => {
        const token = chars.join('');
        // A random token of this length has both letters and digits all but always; fast-check may find the rest.
        fc.pre(/\d/.test(token) && /[a-z]/i.test(token));
        assert.ok(isKeyLike(token), token);
      }),
    );
    const word = fc.constantFrom('web', 'db', 'prod', 'staging', 'eu', 'west', 'build', 'box', '01', '2');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), fc.constantFrom('-', '_', ' ', '.'), (w, sep) => {
        assert.equal(checkFolderServer(w.join(sep)).ok, true, w.join(sep));
      }),
    );
  });

  it('resolves among one account at a time: its exact id, else its exact name; the accounts in their order', () => {
    const web = server('default', '101', 'web-01');
    const db = server('default', '102', 'db');
    const twinA = server('default', '103', 'twin');
    const twinB = server('default', '104', 'twin');
    const other = server('k1', '9', 'other');
    const all = [web, db, twinA, twinB, other];
    assert.deepEqual(resolveFolderServer('101', all), { kind: 'found', server: web });
    assert.deepEqual(resolveFolderServer('db', all), { kind: 'found', server: db });
    assert.deepEqual(resolveFolderServer('other', all), { kind: 'found', server: other }, 'the next account');
    assert.deepEqual(resolveFolderServer('twin', all), { kind: 'several' });
    for (const near of ['DB', 'web', 'web-01 ', '0101', ' 101']) {
      assert.ok(['noMatch', 'invalid'].includes(resolveFolderServer(near, all).kind), near);
    }
    assert.deepEqual(resolveFolderServer('https://evil.example', all), { kind: 'invalid', problem: 'url' });
    assert.deepEqual(resolveFolderServer('nothing', []), { kind: 'noMatch' });
  });

  it("names this account's server by its name even when another account has an order of that id", () => {
    // Before, ids were looked up across every account first: another account's order 'web-01' won.
    const mine = server('default', '101', 'web-01');
    const theirs = server('k1', 'web-01', 'their box');
    assert.deepEqual(resolveFolderServer('web-01', [mine, theirs]), { kind: 'found', server: mine });
    const sameId = server('k1', '101', 'their 101');
    assert.deepEqual(
      resolveFolderServer('101', [mine, sameId]),
      { kind: 'found', server: mine },
      'no twin across accounts',
    );
  });
});
