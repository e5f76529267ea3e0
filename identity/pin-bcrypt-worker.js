/**
 * Runs in the PIN hashing pool's worker threads (identity/secrets.ts): bcrypt, synchronous
 * here because this thread does nothing else, at a lower scheduling priority than the rest
 * of the machine (on Linux a thread's nice value is its own: setpriority on the calling
 * thread leaves the event loop and the other threads as they are).
 *
 * JavaScript, not TypeScript, on purpose: each thread is an isolate of its own, and the first
 * .ts module an isolate loads starts Node's type stripper in it (its WebAssembly module and
 * memory): ~8 MiB more resident memory per thread, for a dozen lines. The task's type is
 * `PinTask` in identity/secrets.ts.
 */
import { setPriority } from 'node:os';
import bcrypt from 'bcryptjs';

/** Nice 10: about a tenth of a core's share against a normal-priority thread that wants it. */
const PIN_THREAD_NICE = 10;

try {
  setPriority(PIN_THREAD_NICE);
} catch {
  // Not permitted (some sandboxes): the thread runs at normal priority.
}

/** @param {import('./secrets.ts').PinTask} task */
export default function run(task) {
  return task.op === 'hash' ? bcrypt.hashSync(task.pin, task.cost) : bcrypt.compareSync(task.pin, task.hash);
}
