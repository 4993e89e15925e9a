import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';

/** The ApiError a call fails with; the test fails if the call succeeds or throws anything else. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}
