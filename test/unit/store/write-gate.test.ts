import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../../src/store/sqlite/context-writer.ts';
import { WriteGate } from '../../../src/store/sqlite/write-gate.ts';

/**
 * The stand-in writer thread (write-gate-writer.ts) running transactions through `gate`; the function returned
 * ends its hold (if any), its loop and the thread.
 */
function startWriter(gate: WriteGate, state: Int32Array, holdMs: number) {
  const writer = new Worker(workerEntry(new URL('./write-gate-writer', import.meta.url)), {
    workerData: { cells: gate.cells, state, holdMs },
  });
  const stopped = new Promise((resolve, reject) => {
    writer.once('message', resolve);
    writer.once('error', reject);
  });
  return async () => {
    if (state.length > 3) Atomics.store(state, 3, 0);
    Atomics.store(state, 2, 1);
    await stopped;
    await writer.terminate();
  };
}

test('the write gate: a busy writer thread never starves main-thread writes, and never runs beside them', async () => {
  const gate = WriteGate.create();
  const state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const stop = startWriter(gate, state, 5);
  try {
    // The writer runs transaction after transaction, as a backfill does.
    while (Atomics.load(state, 1) < 5) await tick();
    for (let i = 0; i < 30; i++) {
      const doneBefore = Atomics.load(state, 1);
      await gate.enter();
      try {
        assert.equal(Atomics.load(state, 0), 0, 'the writer is inside a transaction while main writes');
        // Main's own "write": the writer must stay out for all of it.
        const until = performance.now() + 2;
        while (performance.now() < until) assert.equal(Atomics.load(state, 0), 0);
      } finally {
        gate.leave();
      }
      // Between main's writes the writer gets its turn again.
      while (Atomics.load(state, 1) === doneBefore) await tick();
    }
  } finally {
    await stop();
  }
  assert.ok(Atomics.load(state, 1) > 30);
});

test('a main-thread write waits for the writer thread without stopping the event loop', async () => {
  const gate = WriteGate.create();
  const state = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  Atomics.store(state, 3, 1); // the writer's transaction lasts until the test lets it end
  const stop = startWriter(gate, state, 0);
  let entered = false;
  let left = false;
  try {
    while (Atomics.load(state, 0) === 0) await tick();
    const entering = gate.enter().then(() => {
      entered = true;
    });
    // The loop turns while the writer holds its transaction, and the write still waits.
    for (let i = 0; i < 20; i++) await tick();
    assert.equal(entered, false, 'the main-thread write went ahead while the writer was inside');
    const done = Atomics.load(state, 1);
    Atomics.store(state, 3, 0);
    await entering;
    assert.equal(Atomics.load(state, 0), 0, 'the writer is still inside its transaction');
    assert.equal(Atomics.load(state, 1), done + 1);
    // And, wanted, the writer starts no new transaction until main is done.
    for (let i = 0; i < 20; i++) await tick();
    assert.equal(Atomics.load(state, 1), done + 1);
    gate.leave();
    left = true;
    while (Atomics.load(state, 1) === done + 1) await tick();
  } finally {
    // A failed assertion must not leave the writer waiting for the gate: stopping it would never end.
    if (entered && !left) gate.leave();
    await stop();
  }
});

test('the write gate counts nested main-thread writers', async () => {
  const gate = WriteGate.create();
  await gate.enter();
  await gate.enter();
  gate.leave();
  assert.equal(Atomics.load(gate.cells, 0), 1);
  gate.leave();
  assert.equal(Atomics.load(gate.cells, 0), 0);
  // Nobody wants to write: the writer side runs at once, and is out afterwards.
  assert.equal(
    gate.run(() => Atomics.load(gate.cells, 1)),
    1,
  );
  assert.equal(Atomics.load(gate.cells, 1), 0);
});
