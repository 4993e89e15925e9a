import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension } from '../env';

describe('pseudo-locale: every string on screen comes through l10n', () => {
  it('runs in the pseudo-locale', async () => {
    const ext = await activeExtension();
    const json = ext.packageJSON as { contributes: { commands: Array<{ title: string }> } };
    console.log('LANG', vscode.env.language, json.contributes.commands[0]?.title, vscode.l10n.t('Running'));
    assert.equal(vscode.env.language, 'qps-ploc');
  });
});
