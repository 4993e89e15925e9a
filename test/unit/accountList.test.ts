import assert from 'node:assert/strict';
import {
  addAccount,
  allAccounts,
  announcedDigest,
  DEFAULT_ACCOUNT_ID,
  digestOf,
  editAccountAddress,
  markerOf,
  MAX_ACCOUNTS,
  MAX_LABEL_LENGTH,
  newAccountId,
  readStoredAccounts,
  removeAccount,
  renameAccount,
  type StoredAccounts,
} from '../../src/accounts/accountList';
import { secretNameOf } from '../../src/auth/secretNames';

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

describe('account address and change marker (unit)', () => {
  const one: StoredAccounts = {
    version: 1,
    accounts: [{ id: 'ab12cd34', label: 'Client', baseUrl: 'https://old.example' }],
  };

  it('moves an added account to a new address, held to the base URL rules, keeping its id and label', () => {
    const moved = editAccountAddress(one, 'ab12cd34', { baseUrl: 'https://new.example/api/v1/' });
    assert.deepEqual(moved.accounts, [{ id: 'ab12cd34', label: 'Client', baseUrl: 'https://new.example' }]);
    const withSite = editAccountAddress(one, 'ab12cd34', {
      baseUrl: 'http://127.0.0.1:8080',
      websiteUrl: 'https://www.example/',
    });
    assert.deepEqual(withSite.accounts[0], {
      id: 'ab12cd34',
      label: 'Client',
      baseUrl: 'http://127.0.0.1:8080',
      websiteUrl: 'https://www.example',
    });
    // No website given: none kept.
    assert.equal(
      editAccountAddress(withSite, 'ab12cd34', { baseUrl: 'https://x.example' }).accounts[0]?.websiteUrl,
      undefined,
    );
  });

  it('refuses an address the base URL rules refuse, an unknown account and the first one (its address is a setting)', () => {
    for (const baseUrl of [
      'http://far.example',
      'ftp://x.example',
      'https://u:p@x.example',
      '',
      'https://x.example/?a=1',
    ]) {
      assert.throws(() => editAccountAddress(one, 'ab12cd34', { baseUrl }), RangeError, baseUrl);
    }
    assert.throws(
      () => editAccountAddress(one, 'ab12cd34', { baseUrl: 'https://x.example', websiteUrl: 'http://far.example' }),
      RangeError,
    );
    assert.throws(() => editAccountAddress(one, 'zz99zz99', { baseUrl: 'https://x.example' }), RangeError);
    assert.throws(() => editAccountAddress(one, DEFAULT_ACCOUNT_ID, { baseUrl: 'https://x.example' }), RangeError);
  });

  it('announces a list by its digest: equal lists, equal digests; any change, another digest', () => {
    const same = readStoredAccounts(JSON.parse(JSON.stringify(one)));
    assert.equal(digestOf(same), digestOf(one));
    assert.notEqual(digestOf(renameAccount(one, 'ab12cd34', 'Other')), digestOf(one));
    assert.notEqual(digestOf(removeAccount(one, 'ab12cd34')), digestOf(one));
    assert.notEqual(digestOf(renameAccount(one, DEFAULT_ACCOUNT_ID, 'Mine')), digestOf(one));
    // Two writes of the same list are two changes of the marker, announcing the same list.
    const [a, b] = [markerOf(one, 1), markerOf(one, 2)];
    assert.notEqual(a, b);
    assert.equal(announcedDigest(a), digestOf(one));
    assert.equal(announcedDigest(b), digestOf(one));
  });

  it('reads a marker it did not write as announcing nothing, bounded before looking', () => {
    for (const marker of [undefined, 7, '', ':1', 'NOT-A-DIGEST:1', 'a'.repeat(65), `${'a'.repeat(9)}:1`, {}]) {
      assert.equal(announcedDigest(marker), undefined, JSON.stringify(marker) ?? 'undefined');
    }
    assert.equal(announcedDigest('abc123'), 'abc123');
  });
});
