/** Small user-level actions on the VS Code web workbench, so scenarios read like what a user does. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Locator, type Page } from 'playwright-core';

export const screenshotsDir = path.resolve(__dirname, '..', '..', '..', 'test', 'e2e', 'screenshots');
/** The README's pictures: kept in git, left out of the VSIX (see .vscodeignore). */
export const docsImagesDir = path.resolve(__dirname, '..', '..', '..', 'docs', 'images');
export const artifactsDir = path.resolve(__dirname, '..', '..', '..', 'test', 'e2e', 'artifacts');

/** Timeouts, in ms: every wait has one. */
export const timeouts = { ui: 20_000, workbench: 60_000 } as const;

let screenshotCount = 0;

export class Workbench {
  constructor(readonly page: Page) {}

  /** Waits until the workbench has rendered its activity bar and status bar. */
  async ready(): Promise<void> {
    await this.page.locator('.monaco-workbench .activitybar').waitFor({ timeout: timeouts.workbench });
    await this.page.locator('.statusbar').waitFor({ timeout: timeouts.workbench });
  }

  /** Clicks an activity bar entry (a view container) by the start of its title. */
  async openViewContainer(title: string): Promise<void> {
    // VS Code 1.139 labels the tab's inner link, not the tab itself (which the recipe's selector expects): take either.
    const label = `[aria-label^="${title}"]`;
    const tab = this.page
      .locator(`.activitybar [role="tab"]${label}, .activitybar [role="tab"]:has(> ${label})`)
      .first();
    await tab.click({ timeout: timeouts.ui });
    await this.page.locator('.sidebar .composite.title', { hasText: title }).waitFor({ timeout: timeouts.ui });
  }

  /** The view pane (header and body) with this name in the side bar. */
  view(name: string): Locator {
    return this.page.locator('.sidebar .pane').filter({ has: this.page.locator('.pane-header', { hasText: name }) });
  }

  /** Runs a command from the command palette (F1) by its full title, e.g. `Hosting: Set API Key`. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.quickInput();
    await input.waitFor({ timeout: timeouts.ui });
    await input.fill(`>${title}`);
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: timeouts.ui });
    await input.press('Enter');
  }

  /** The quick input's text box (command palette, input box and quick pick alike). */
  quickInput(): Locator {
    return this.page.locator('.quick-input-widget input.input');
  }

  /** Types into the open input box or quick pick and (by default) confirms with Enter. */
  async typeInQuickInput(text: string, options: { submit?: boolean; prompt?: string } = {}): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    if (options.prompt !== undefined) {
      await widget
        .locator('.quick-input-message, .quick-input-description', { hasText: options.prompt })
        .first()
        .waitFor({ timeout: timeouts.ui });
    }
    const input = this.quickInput();
    await input.waitFor({ timeout: timeouts.ui });
    await input.fill(text);
    if (options.submit ?? true) await input.press('Enter');
  }

  /** A tree or list row by its text, anywhere in the workbench (scope it with `within`). */
  rowByText(text: string | RegExp, within?: Locator): Locator {
    return (within ?? this.page).locator('.monaco-list-row', { hasText: text }).first();
  }

  /**
   * Right-clicks a row and picks a context menu item by its name. VS Code ignores a click that comes right after the
   * menu opened (so that releasing the right button does not pick an item), so the item is focused and chosen with Enter.
   */
  async contextMenu(row: Locator, item: string | RegExp): Promise<void> {
    await row.click({ button: 'right', timeout: timeouts.ui });
    const menuItem = this.page.getByRole('menuitem', { name: item }).first();
    await menuItem.hover({ timeout: timeouts.ui });
    await this.page.locator('.monaco-menu .action-item.focused', { has: menuItem }).waitFor({ timeout: timeouts.ui });
    await this.page.keyboard.press('Enter');
    await menuItem.waitFor({ state: 'hidden', timeout: timeouts.ui });
  }

  /**
   * Hovers `target` until a hover with `text` shows, and returns it. A hover is dropped when the tree re-renders the row
   * under a still mouse (a refresh), and comes back only on a new move: so the mouse leaves and returns, within one wait.
   */
  async hoverUntil(target: Locator, text: string | RegExp): Promise<Locator> {
    const hover = this.page.locator('.monaco-hover', { hasText: text }).first();
    const deadline = Date.now() + timeouts.ui;
    for (;;) {
      await this.page.mouse.move(800, 300);
      await target.hover({ timeout: timeouts.ui });
      const shown = await hover
        .waitFor({ timeout: Math.max(1, Math.min(4_000, deadline - Date.now())) })
        .then(() => true)
        .catch(() => false);
      if (shown) return hover;
      if (Date.now() >= deadline) throw new Error(`no hover with ${String(text)} over the target in ${timeouts.ui} ms`);
    }
  }

  /** A status bar item by its text. */
  statusBarItem(text: string | RegExp): Locator {
    return this.page.locator('.statusbar-item', { hasText: text }).first();
  }

  /** A notification toast by its text. */
  notification(text: string | RegExp): Locator {
    return this.page.locator('.notification-toast', { hasText: text }).first();
  }

  /**
   * Saves `test/e2e/screenshots/NN-name.png`, numbered in the order taken. Animations are finished first: menus fade
   * in even with reduced motion. A shot the README shows names its `docs` file: with UPDATE_DOCS_SCREENSHOTS=1 (`npm run
   * docs:screenshots`) it is also written to `docs/images/<docs>.png`, without the notification toasts and hovers that
   * earlier steps of the scenario leave behind.
   */
  async screenshot(name: string, options: { docs?: string } = {}): Promise<string> {
    screenshotCount += 1;
    const file = path.join(screenshotsDir, `${String(screenshotCount).padStart(2, '0')}-${slug(name)}.png`);
    fs.mkdirSync(screenshotsDir, { recursive: true });
    await this.page.screenshot({ path: file, timeout: timeouts.ui, animations: 'disabled' });
    if (options.docs && process.env.UPDATE_DOCS_SCREENSHOTS === '1') {
      fs.mkdirSync(docsImagesDir, { recursive: true });
      // A hover left where the scenario last clicked would cover what the picture is about.
      const size = this.page.viewportSize();
      if (size) await this.page.mouse.move(size.width - 5, Math.round(size.height / 2));
      await this.page
        .locator('.monaco-hover')
        .first()
        .waitFor({ state: 'hidden', timeout: 3_000 })
        .catch(() => undefined);
      await this.page.screenshot({
        path: path.join(docsImagesDir, `${slug(options.docs)}.png`),
        timeout: timeouts.ui,
        animations: 'disabled',
        style: '.notifications-toasts { display: none !important; }',
      });
    }
    return file;
  }
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}
