// What the fake's own tests share when they drive it with the official client (@octokit/rest).
import assert from 'node:assert/strict';

/** Octokit's logger, silenced: expected 4xx answers would otherwise fill the test output. */
export const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export interface HttpFailure {
  status: number;
  response: { data: unknown; headers: Record<string, unknown> };
}

/** Awaits a request that must fail and returns the client's error (octokit's RequestError). */
export async function rejection(promise: Promise<unknown>): Promise<HttpFailure> {
  try {
    await promise;
  } catch (error) {
    const failure = error as Partial<HttpFailure>;
    assert.equal(typeof failure.status, 'number', String(error));
    assert.ok(failure.response !== undefined, 'the error carries the HTTP response');
    return failure as HttpFailure;
  }
  assert.fail('expected the request to be rejected');
}
