/** What the integration suites share: the extension under test and the address of the run's mock API. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const extensionId = 'hosting-tools.hosting-account';

/**
 * The suite mock's address (reserved by `runTests.ts`, served by `suiteMock()` in harness.ts) and key, passed through
 * `extensionTestsEnv`.
 */
export function testApi(): { url: string; key: string } {
  const url = process.env.HOSTING_ACCOUNT_TEST_API_URL;
  const key = process.env.HOSTING_ACCOUNT_TEST_API_KEY;
  assert.ok(url !== undefined && key !== undefined, 'run these tests through out/test/integration/runTests.js');
  return { url, key };
}

export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(extensionId);
  assert.ok(ext, `${extensionId} is not installed in the extension host`);
  return ext;
}

/** The extension, activated. */
export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const ext = extension();
  await ext.activate();
  return ext;
}
