/**
 * Password hashing (argon2id) runs at most PASSWORD_HASHES_AT_ONCE hashes at once: each takes
 * 64 MiB while it runs, and a burst of sign-ins ran four at once on libuv's pool (the API's
 * resident memory more than doubled). The rest wait their turn and
 * every answer is still right.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PASSWORD_HASHES_AT_ONCE, hashPassword, passwordHashQueue, verifyPassword } from './secrets.ts';

describe('password hashing', () => {
  it('runs at most PASSWORD_HASHES_AT_ONCE argon2id hashes at once; the others wait, and all answer right', async () => {
    const passwords = ['first-password', 'second-password', 'third-password', 'fourth-password'];
    const hashes = passwords.map((password) => hashPassword(password));
    await nextTurn();
    const queue = passwordHashQueue();
    expect(queue.running + queue.waiting).toBe(passwords.length);
    expect(queue.running).toBeLessThanOrEqual(PASSWORD_HASHES_AT_ONCE);
    expect(queue.waiting).toBeGreaterThanOrEqual(passwords.length - PASSWORD_HASHES_AT_ONCE);

    const stored = await Promise.all(hashes);
    for (const hash of stored) expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    const checks = await Promise.all([
      ...passwords.map((password, index) => verifyPassword(stored[index] ?? null, password)),
      verifyPassword(stored[0] ?? null, 'not-the-password'),
      verifyPassword(null, 'an-unknown-account'),
    ]);
    expect(checks).toEqual([true, true, true, true, false, false]);
    expect(passwordHashQueue()).toEqual({ running: 0, waiting: 0 });
  });
});
