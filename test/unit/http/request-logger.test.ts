import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, lazyChildLogger } from '../../../src/logger.ts';

/** A pino logger at `level` writing into an array of parsed lines, and a count of the children made of it. */
function logger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const parent = createLogger(level, sink);
  let children = 0;
  // Counted on every logger made from it too (a child inherits this member): kept on `this`, as pino's own.
  const original = parent.child;
  parent.child = function (this: typeof parent, ...args: Parameters<typeof original>) {
    children++;
    return original.apply(this, args);
  } as typeof original;
  return { parent, lines, children: () => children };
}

describe("each request's logger (lazyChildLogger)", () => {
  it('makes no pino child for writes below the level, and writes nothing', () => {
    const { parent, lines, children } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'req_a' }, {});
    log.info({ req: { url: '/x' } }, 'incoming request');
    log.debug('detail');
    log.trace('more detail');
    assert.equal(children(), 0);
    assert.deepEqual(lines, []);
  });

  it('writes at an enabled level through a child carrying the bindings, made once', () => {
    const { parent, lines, children } = logger('info');
    const log = lazyChildLogger(parent, { reqId: 'req_b' }, {});
    log.info('first');
    log.error({ code: 'X' }, 'second');
    assert.equal(children(), 1);
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg, l.level]),
      [
        ['req_b', 'first', 30],
        ['req_b', 'second', 50],
      ],
    );
    assert.equal(lines[1]?.code, 'X');
  });

  it("keeps the parent's redaction", () => {
    const { parent, lines } = logger('info');
    lazyChildLogger(parent, { reqId: 'req_c' }, {}).warn(
      { headers: { authorization: 'Bearer s3cret' } },
      'w',
    );
    assert.equal((lines[0]?.headers as Record<string, unknown>).authorization, '[redacted]');
    assert.ok(!JSON.stringify(lines).includes('s3cret'));
  });

  it("reads the parent's level until its own is set; a set level applies to it alone", () => {
    const { parent, lines } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'req_d' }, {});
    assert.equal(log.level, 'warn');
    assert.equal(log.isLevelEnabled('info'), false);
    log.level = 'debug';
    assert.equal(log.level, 'debug');
    assert.equal(parent.level, 'warn');
    log.debug('now written');
    parent.debug('still not');
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg]),
      [['req_d', 'now written']],
    );
  });

  it('gives children that carry its bindings and their own, and reports its bindings', () => {
    const { parent, lines } = logger('info');
    const log = lazyChildLogger(parent, { reqId: 'req_e' }, {});
    log.child({ job: 'j1' }).info('from a child');
    assert.deepEqual([lines[0]?.reqId, lines[0]?.job], ['req_e', 'j1']);
    assert.deepEqual(log.bindings(), { service: 'ces', reqId: 'req_e' });
  });

  it('is made at once when the route sets its own level, which then decides what is written', () => {
    const { parent, lines, children } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'req_f' }, { level: 'debug' });
    assert.equal(children(), 1);
    log.debug('written at the route level');
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg]),
      [['req_f', 'written at the route level']],
    );
  });
});
