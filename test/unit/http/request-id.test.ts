import assert from 'node:assert/strict';
import { it } from 'node:test';
import { newRequestId } from '../../../src/http/request-id.ts';

it('request ids are distinct across refills of their random pool, 96 random bits each', () => {
  const ids = Array.from({ length: 2000 }, () => newRequestId());
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^req_[A-Za-z0-9_-]{16}$/);
});
