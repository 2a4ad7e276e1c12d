import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { validateReplicationConfig } from '../../../src/core/connectors/replication-config.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../src/core/json-depth.ts';
import { DomainError } from '../../../src/errors.ts';
import { jsonTextProblem } from '../../../src/http/json-body.ts';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('JSON depth', () => {
  test('a value is as deep as its deepest container, measured without recursion', () => {
    assert.equal(jsonDepthExceeds('text', 0), false);
    assert.equal(jsonDepthExceeds({}, 1), false);
    assert.equal(jsonDepthExceeds({ a: [] }, 1), true);
    assert.equal(jsonDepthExceeds(nested(64), 64), false);
    assert.equal(jsonDepthExceeds(nested(65), 64), true);
    // Far deeper than any recursive walker survives.
    assert.equal(jsonDepthExceeds(nested(200_000), 64), true);
  });

  test('the text scan counts brackets outside strings only, and finds lone surrogate escapes', () => {
    assert.equal(jsonTextProblem(`${'['.repeat(64)}${']'.repeat(64)}`, 64), undefined);
    assert.equal(jsonTextProblem(`${'['.repeat(65)}${']'.repeat(65)}`, 64), 'too_deep');
    assert.equal(jsonTextProblem(`{"a":"${'['.repeat(500)}"}`, 64), undefined, 'brackets in a string');
    assert.equal(jsonTextProblem(`{"a":"\\"${'{'.repeat(500)}"}`, 64), undefined, 'after an escaped quote');
    assert.equal(jsonTextProblem(`{"a\\\\":${'['.repeat(65)}1${']'.repeat(65)}}`, 64), 'too_deep');
    assert.equal(
      jsonTextProblem('{"a":"\\ud83d\\ude00 \\u00e9"}', 64),
      undefined,
      'a surrogate pair is text',
    );
    assert.equal(jsonTextProblem('{"a":"\\ud83dx"}', 64), 'lone_surrogate');
    assert.equal(jsonTextProblem('{"a":"\\ude00"}', 64), 'lone_surrogate');
    assert.equal(jsonTextProblem('{"a":"\\uD800"}', 64), 'lone_surrogate');
    assert.equal(jsonTextProblem('{"a":"\\\\ud800"}', 64), undefined, 'an escaped backslash, then text');
    assert.equal(jsonTextProblem(`${'['.repeat(1_000_000)}`, 64), 'too_deep');
  });

  test('replication_config nested past the limit is a 422 naming it, not a stack overflow', () => {
    const def = DefinitionRegistry.default().bySlug('github')!;
    let error: unknown;
    try {
      validateReplicationConfig(def, { repositories: ['a/b'], deep: nested(20_000) });
    } catch (err) {
      error = err;
    }
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.errors[0]?.field, 'replication_config');
    assert.equal(error.errors[0]?.error_code, 'max_depth');
    assert.equal(error.errors[0]?.details?.max_depth, MAX_JSON_DEPTH);
  });
});
