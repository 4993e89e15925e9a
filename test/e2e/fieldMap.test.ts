import * as assert from 'node:assert/strict';
import { VMS_FIELD_MAP, vmsFault } from '../mock-api/vmsShape';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

/**
 * A provider that keeps its servers where the general reading does not look ("vms", "ident", "label_text"): the user
 * sees why nothing is listed, teaches the field map, sees what it reads before saving, and then sees the servers.
 */
describe('a user teaches the field map to a provider the extension cannot read', () => {
  // The map is typed: the editor's own closing brackets and quotes would double it.
  const session = useSession({
    mock: { transitionMs: 2_500 },
    settings: { 'editor.autoClosingBrackets': 'never', 'editor.autoClosingQuotes': 'never' },
  });

  it('signs in and is told why no server is listed, with the ways out', async () => {
    const { mock, workbench } = session();
    mock.faults.add(vmsFault(mock.state));
    await signIn(session());
    const orders = workbench.view('Orders');
    await orders
      .getByText(/teach the field map/i)
      .first()
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('no server could be read');
  });

  it('opens the field map beside what the server sent, types it, and sees the preview before saving', async () => {
    const { page, workbench } = session();
    await workbench.runCommand('Hosting: Teach the Field Map…');
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'pointers' }).waitFor({ timeout: timeouts.ui });
    await page
      .locator('.monaco-editor .view-lines', { hasText: 'label_text' })
      .first()
      .waitFor({ timeout: timeouts.ui });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    // On one line, then formatted: the editor would indent each new line again.
    await page.keyboard.press('Delete');
    await page.keyboard.type(JSON.stringify(VMS_FIELD_MAP));
    await workbench.runCommand('Format Document');
    await editor.locator('.view-lines', { hasText: '"orderList": "/vms",' }).waitFor({ timeout: timeouts.ui });
    await editor.locator('.codelens-decoration a', { hasText: 'Preview and Save Field Map' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: timeouts.ui });
    const text = await dialog.innerText();
    assert.match(text, /web-frontend-01 · Running · 203\.0\.113\.10/);
    assert.match(text, /staging-box · Stopped · 198\.51\.100\.23/);
    await workbench.screenshot('the field map preview before saving', { docs: 'field-map-preview' });
  });

  it('saves the map and sees the servers named, with their states', async () => {
    const { workbench } = session();
    await dialogButton(session(), 'Save Field Map').click();
    const orders = workbench.view('Orders');
    const row = workbench.rowByText('web-frontend-01', orders);
    await row.waitFor({ timeout: timeouts.ui });
    assert.match(await row.innerText(), /Running/);
    assert.match(await workbench.rowByText('staging-box', orders).innerText(), /Stopped/);
    // What the server sent, still open, follows the answers read again.
    await workbench.page
      .locator('.monaco-editor .view-lines', { hasText: 'label_text' })
      .first()
      .waitFor({ timeout: timeouts.ui });
    await workbench.screenshot('servers read through the field map');
  });
});
