/**
 * PIN checks without bcrypt on the hot path (identity/pin-verifier.ts): beside the bcrypt
 * hash, a peppered HMAC verifier and the id of the pepper that made it; and the last stage
 * of the escalating lockout (15 wrong PINs in a row: locked until an e-mailed PIN reset).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table identity.users
  add column pin_verifier bytea check (octet_length(pin_verifier) = 32),
  add column pin_verifier_key text,
  add column pin_reset_required boolean not null default false,
  add constraint pin_verifier_has_key check ((pin_verifier is null) = (pin_verifier_key is null));
`.execute(db);
}
