import { type Session } from './session';
import { timeouts } from './workbench';

/** What a user does first: open the Hosting view and enter the key through the command palette. */
export async function signIn(session: Session, key = session.apiKey): Promise<void> {
  await enterKey(session, key);
  await session.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: timeouts.ui });
}

/** Opens the Hosting view, runs Set API Key and types the key; the box stays open if the server rejects it. */
export async function enterKey(session: Session, key: string): Promise<void> {
  const { workbench } = session;
  await workbench.openViewContainer('Hosting');
  await workbench.view('Orders').getByRole('button', { name: 'Set API Key' }).waitFor({ timeout: timeouts.ui });
  await workbench.runCommand('Hosting: Set API Key');
  await workbench.typeInQuickInput(key);
}

/** The modal dialog's button by its name. */
export function dialogButton(session: Session, name: string | RegExp) {
  return session.page.locator('.monaco-dialog-box').getByRole('button', { name });
}
