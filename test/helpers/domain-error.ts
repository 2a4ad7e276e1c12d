import assert from 'node:assert/strict';
import { DomainError } from '../../src/errors.ts';

/**
 * A matcher for `assert.rejects` / `assert.throws`: a DomainError with this code, whose message matches `check`
 * when it is a RegExp, or which passes `check` when it is a function.
 */
export function domainError(code: string, check?: RegExp | ((err: DomainError) => void)) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    if (check instanceof RegExp) assert.match(err.message, check);
    else check?.(err);
    return true;
  };
}
