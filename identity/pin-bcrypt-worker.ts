/**
 * Runs in the PIN hashing pool's worker threads (identity/secrets.ts): bcrypt, synchronous
 * here because this thread does nothing else.
 */
import bcrypt from 'bcryptjs';

export type PinTask = { op: 'hash'; pin: string; cost: number } | { op: 'compare'; pin: string; hash: string };

export default function run(task: PinTask): string | boolean {
  return task.op === 'hash' ? bcrypt.hashSync(task.pin, task.cost) : bcrypt.compareSync(task.pin, task.hash);
}
