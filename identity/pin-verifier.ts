/**
 * The peppered PIN verifier: what makes a PIN check cost microseconds instead of a cost-12
 * bcrypt (a large fraction of a second of CPU). bcrypt stays the stored form; beside it, once the server has seen
 * the plain PIN (registration with a plain PIN, a PIN change or reset, or the first right
 * bcrypt compare), sits
 *
 *   HMAC-SHA256(pepper, "pin-v1" | user id | SHA-256 of the current PIN hash | PIN)
 *
 * Why this is safe to keep in the database: without the pepper (PIN_PEPPER or
 * <DATA_DIR>/pin-pepper, never in the database, never derived from the JWT secret) a leaked
 * verifier cannot be brute-forced over the small PIN space; with the user id and the hash
 * digest inside, it is bound to one account and one PIN hash, so a changed or reset PIN (a
 * new hash) leaves the old verifier matching nothing. Each verifier records the id of the
 * pepper that made it: after a rotation, old verifiers are ignored and the next right PIN
 * (checked by bcrypt once) writes a new one.
 */
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export const PIN_VERIFIER_VERSION = 'pin-v1';

export interface PinKeys {
  /**
   * A key object rather than the bytes: an HMAC keyed with a Buffer re-imports the key each
   * time (~14 us on the bench box against ~3 us), and every PIN check makes one.
   */
  pepper: KeyObject;
  /** Names the pepper without revealing it (stored with each verifier). */
  keyId: string;
}

export function pinKeysFrom(pepper: string): PinKeys {
  const secret = Buffer.from(pepper, 'utf8');
  const keyId = createHmac('sha256', secret).update('wallet:pin-pepper-id').digest('hex').slice(0, 16);
  return { pepper: createSecretKey(secret), keyId };
}

export function pinVerifier(keys: PinKeys, userId: string, pinHash: string, pin: string): Buffer {
  const hashDigest = createHash('sha256').update(pinHash).digest('hex');
  return createHmac('sha256', keys.pepper).update(`${PIN_VERIFIER_VERSION}\n${userId}\n${hashDigest}\n${pin}`).digest();
}

/** The stored verifier, if it was made with the current pepper for the current hash. */
export interface StoredVerifier {
  pin_hash: string;
  pin_verifier: Buffer | null;
  pin_verifier_key: string | null;
}

export function verifierUsable(keys: PinKeys, row: StoredVerifier): row is StoredVerifier & { pin_verifier: Buffer } {
  return row.pin_verifier !== null && row.pin_verifier_key === keys.keyId;
}

/** Constant-time: the compare takes as long for a near miss as for a wrong first digit. */
export function matchesVerifier(
  keys: PinKeys,
  userId: string,
  row: StoredVerifier & { pin_verifier: Buffer },
  pin: string,
): boolean {
  const expected = pinVerifier(keys, userId, row.pin_hash, pin);
  return expected.length === row.pin_verifier.length && timingSafeEqual(expected, row.pin_verifier);
}
