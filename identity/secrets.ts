/**
 * Hashing of user secrets: passwords with argon2id, transaction PINs with bcrypt cost 12
 * (the spec's figure; the spec's browser client also sends a bcrypt hash at registration),
 * and one-time codes with HMAC-SHA256 under a pepper derived from the server secret.
 * Also the sub-keys derived from the one server secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';

export const PIN_BCRYPT_COST = 12;

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A fixed hash to verify against when the e-mail is unknown, so timing does not tell. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword('decoy-password-for-unknown-accounts');
    await argon2.verify(await decoyHash, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export async function hashPin(pin: string): Promise<string> {
  return bcrypt.hash(pin, PIN_BCRYPT_COST);
}

export async function pinMatches(hash: string, pin: string): Promise<boolean> {
  return bcrypt.compare(pin, hash);
}

/** A purpose-bound sub-key of the server secret (JWT secret): one root, independent uses. */
export function deriveKey(rootSecret: string, purpose: 'otp-pepper' | 'mail-seal'): Buffer {
  return createHmac('sha256', rootSecret).update(`wallet:${purpose}`).digest();
}

export function hashCode(pepper: Buffer, email: string, purpose: string, code: string): string {
  return createHmac('sha256', pepper).update(`${purpose}\n${email}\n${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
