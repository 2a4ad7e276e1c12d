/**
 * A stand-in for the Context Store writer thread (write-gate.test.ts): back-to-back "transactions" through the
 * gate, each a busy spin of `holdMs` (and, when it has four cells, for as long as the test holds [3] at 1, up to
 * HOLD_MAX_MS: a main thread that blocked while waiting for the gate could never let go, and the test would hang
 * instead of failing), until told to stop. `state`: [0] 1 while inside, [1] transactions done, [2] set by the test
 * to stop, [3] hold.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WriteGate } from '../../../src/store/sqlite/write-gate.ts';

const { cells, state, holdMs } = workerData as { cells: Int32Array; state: Int32Array; holdMs: number };
const gate = WriteGate.from(cells);
const HOLD_MAX_MS = 3000;
while (Atomics.load(state, 2) === 0) {
  gate.run(() => {
    Atomics.store(state, 0, 1);
    const started = performance.now();
    const held = () =>
      state.length > 3 && Atomics.load(state, 3) === 1 && performance.now() - started < HOLD_MAX_MS;
    while (performance.now() - started < holdMs || held()) {
      // a transaction holding the lock
    }
    Atomics.store(state, 0, 0);
    Atomics.add(state, 1, 1);
  });
}
parentPort?.postMessage('stopped');
