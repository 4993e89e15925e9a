import assert from 'node:assert/strict';
import {
  addAccount,
  allAccounts,
  DEFAULT_ACCOUNT_ID,
  editAccountAddress,
  readStoredAccounts,
  removeAccount,
  renameAccount,
  setFieldMap,
  type StoredAccounts,
} from '../../src/accounts/accountList';
import { editedFieldMap, fieldMapTemplate } from '../../src/accounts/fieldMapText';
import { ApiError } from '../../src/api/errors';
import { FIELD_MAP_KEYS } from '../../src/api/normalise/fieldMap';

const MAP = { pointers: { orderList: '/vms', id: '/ident', name: '/label_text' } };
const SETTINGS = { baseUrl: 'https://panel.example', websiteUrl: '' };
const EMPTY: StoredAccounts = { version: 1, accounts: [] };

describe('field maps kept with their accounts (unit)', () => {
  it('keeps the first account’s map in the account list, and an added account’s in its record', () => {
    let stored = addAccount(EMPTY, { id: 'abc', label: 'A', baseUrl: 'https://a.example' });
    stored = setFieldMap(stored, DEFAULT_ACCOUNT_ID, MAP);
    stored = setFieldMap(stored, 'abc', { pointers: { name: '/n' }, amountScale: 'minor' });
    const read = readStoredAccounts(JSON.parse(JSON.stringify(stored)));
    const [first, added] = allAccounts(read, SETTINGS);
    assert.deepEqual(first?.fieldMap, MAP);
    assert.deepEqual(added?.fieldMap, { pointers: { name: '/n' }, amountScale: 'minor' });
    assert.equal(allAccounts(setFieldMap(read, DEFAULT_ACCOUNT_ID, undefined), SETTINGS)[0]?.fieldMap, undefined);
  });

  it('a rename or a new address keeps the map; removing the account removes it', () => {
    let stored = setFieldMap(addAccount(EMPTY, { id: 'abc', label: 'A', baseUrl: 'https://a.example' }), 'abc', MAP);
    stored = renameAccount(stored, 'abc', 'B');
    stored = editAccountAddress(stored, 'abc', { baseUrl: 'https://b.example' });
    assert.deepEqual(stored.accounts[0]?.fieldMap, MAP);
    stored = removeAccount(stored, 'abc');
    assert.ok(!JSON.stringify(stored).includes('/ident'));
  });

  it('leaves out a stored map that breaks the rules (synced from another version, damaged), and keeps the account', () => {
    const read = readStoredAccounts({
      version: 1,
      defaultFieldMap: { pointers: { name: 'label_text' } },
      accounts: [{ id: 'abc', label: 'A', baseUrl: 'https://a.example', fieldMap: { pointers: { evil: '/x' } } }],
    });
    assert.deepEqual(read, { version: 1, accounts: [{ id: 'abc', label: 'A', baseUrl: 'https://a.example' }] });
  });

  it('edits in a template of every field, null where the general reading decides', () => {
    const template = JSON.parse(fieldMapTemplate(MAP)) as { pointers: Record<string, unknown>; amountScale: unknown };
    assert.deepEqual(Object.keys(template.pointers), FIELD_MAP_KEYS);
    assert.equal(template.pointers.name, '/label_text');
    assert.equal(template.pointers.state, null);
    assert.equal(template.amountScale, null);
    assert.deepEqual(editedFieldMap(fieldMapTemplate(MAP)), MAP);
    assert.equal(editedFieldMap(fieldMapTemplate(undefined)), undefined, 'all null: no map');
  });

  it('refuses an edited map that is not JSON or breaks a rule, with the typed reason', () => {
    assert.throws(() => editedFieldMap('{"pointers": {'), SyntaxError);
    assert.throws(
      () => editedFieldMap('{"pointers":{"name":"label_text"}}'),
      (error: unknown) =>
        error instanceof ApiError && error.reason?.rule === 'fieldMapInvalid' && error.reason.problem === 'badPointer',
    );
    assert.throws(() => editedFieldMap('{"pointers":{},"baseUrl":"https://evil.example"}'), ApiError);
  });
});
