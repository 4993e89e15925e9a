import assert from 'node:assert/strict';
import {
  addAccount,
  allAccounts,
  DEFAULT_ACCOUNT_ID,
  MAX_ACCOUNTS,
  MAX_LABEL_LENGTH,
  newAccountId,
  readStoredAccounts,
  removeAccount,
  renameAccount,
  secretNameOf,
  type StoredAccounts,
} from '../../src/accounts/accountList';

const EMPTY: StoredAccounts = { version: 1, accounts: [] };

describe('account list (unit)', () => {
  it("makes today's setup the first account, without writing anything (lossless migration)", () => {
    const accounts = allAccounts(readStoredAccounts(undefined), { baseUrl: 'https://panel.example/', websiteUrl: '' });
    assert.deepEqual(accounts, [{ id: DEFAULT_ACCOUNT_ID, label: 'panel.example', baseUrl: 'https://panel.example' }]);
    // The first account's key is the secret the extension always used.
    assert.equal(secretNameOf(DEFAULT_ACCOUNT_ID), 'hostingAccount.apiKey');
    assert.equal(secretNameOf('ab12cd34'), 'hostingAccount.apiKey.ab12cd34');
  });

  it('keeps an unset or invalid base URL on the first account as it is, for the views to explain', () => {
    assert.equal(allAccounts(EMPTY, { baseUrl: '', websiteUrl: '' })[0]?.baseUrl, '');
    assert.equal(
      allAccounts(EMPTY, { baseUrl: 'http://far.example', websiteUrl: '' })[0]?.baseUrl,
      'http://far.example',
    );
  });

  it('adds, renames and removes accounts', () => {
    let stored = addAccount(EMPTY, { id: 'abc', label: ' Client A ', baseUrl: 'https://a.example/api/v1' });
    assert.deepEqual(stored.accounts, [{ id: 'abc', label: 'Client A', baseUrl: 'https://a.example' }]);
    stored = renameAccount(stored, 'abc', 'Client B');
    assert.equal(stored.accounts[0]?.label, 'Client B');
    stored = renameAccount(stored, DEFAULT_ACCOUNT_ID, 'Mine');
    assert.equal(allAccounts(stored, { baseUrl: 'https://x.example', websiteUrl: '' })[0]?.label, 'Mine');
    assert.deepEqual(removeAccount(stored, 'abc').accounts, []);
    assert.throws(() => renameAccount(stored, 'nope', 'x'), RangeError);
    assert.throws(() => renameAccount(stored, 'abc', '   '), RangeError);
  });

  it('refuses an account whose base URL breaks the rules, a duplicate, or one too many', () => {
    assert.throws(() => addAccount(EMPTY, { id: 'abc', label: 'A', baseUrl: 'http://a.example' }), RangeError);
    assert.throws(() => addAccount(EMPTY, { id: DEFAULT_ACCOUNT_ID, label: 'A', baseUrl: 'https://a.example' }));
    const one = addAccount(EMPTY, { id: 'abc', label: 'A', baseUrl: 'https://a.example' });
    assert.throws(() => addAccount(one, { id: 'abc', label: 'B', baseUrl: 'https://b.example' }), RangeError);
    let full = EMPTY;
    for (let i = 0; i < MAX_ACCOUNTS - 1; i++) {
      full = addAccount(full, { id: `a${i}`, label: 'x', baseUrl: 'https://a.example' });
    }
    assert.throws(() => addAccount(full, { id: 'zz', label: 'x', baseUrl: 'https://a.example' }), RangeError);
  });

  it('reads back only what is exactly right, bounded, from a synced or damaged globalState', () => {
    for (const raw of [null, 42, 'x', [], { version: 2, accounts: [] }, { version: 1, accounts: 'x' }]) {
      assert.deepEqual(readStoredAccounts(raw), EMPTY);
    }
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: `a${i}`, label: 'x', baseUrl: 'https://a.example' }));
    assert.equal(readStoredAccounts({ version: 1, accounts: many }).accounts.length, MAX_ACCOUNTS - 1);
    const read = readStoredAccounts({
      version: 1,
      defaultLabel: 'x'.repeat(10_000),
      accounts: [
        { id: 'ok', label: 'Fine\u0000\nname', baseUrl: 'https://ok.example', websiteUrl: 'https://site.example' },
        { id: 'ok', label: 'duplicate', baseUrl: 'https://ok.example' },
        { id: DEFAULT_ACCOUNT_ID, label: 'shadowing the first', baseUrl: 'https://ok.example' },
        { id: '../x', label: 'bad id', baseUrl: 'https://ok.example' },
        { id: 'plain', label: 'plain http', baseUrl: 'http://far.example' },
        { id: 'nolabel', label: '  ', baseUrl: 'https://ok.example' },
        { id: 'badsite', label: 'site', baseUrl: 'https://ok.example', websiteUrl: 'javascript:alert(1)' },
      ],
    });
    assert.equal(read.defaultLabel?.length, MAX_LABEL_LENGTH);
    assert.deepEqual(read.accounts, [
      { id: 'ok', label: 'Fine name', baseUrl: 'https://ok.example', websiteUrl: 'https://site.example' },
      { id: 'badsite', label: 'site', baseUrl: 'https://ok.example' },
    ]);
  });

  it('makes new ids that are valid and unused', () => {
    const stored = addAccount(EMPTY, { id: '00000000', label: 'A', baseUrl: 'https://a.example' });
    const values = [0, 0, 0.5];
    const id = newAccountId(stored, () => values.shift() ?? 0.25);
    assert.notEqual(id, '00000000');
    assert.equal(
      readStoredAccounts({ version: 1, accounts: [{ id, label: 'x', baseUrl: 'https://a.example' }] }).accounts.length,
      1,
    );
  });
});
