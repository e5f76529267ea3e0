/**
 * Identity: users (credentials, role, verification state, transaction-PIN lockout) and
 * e-mailed one-time codes. Plain tables, not event-sourced: a user's wallet lives in the
 * ledger under the same id (the account number), opened in the registering transaction.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema identity;

create table identity.users (
  -- Also the wallet's account number: the spec's clients treat it as a string of
  -- letters, digits, underscore and hyphen.
  id text primary key check (id ~ '^[A-Za-z0-9_-]{1,64}$'),
  email text not null check (email = lower(email) and length(email) between 3 and 254),
  first_name text not null,
  last_name text not null,
  contact_no text,
  identification text check (identification in ('Passport', 'Driver''s License', 'National ID', 'Aadhaar Card', 'PAN Card')),
  identification_number text,
  address text,
  -- argon2id; null for accounts that only sign in through Google.
  password_hash text,
  -- bcrypt (cost >= 10); null means PIN_NOT_SET.
  pin_hash text,
  is_admin boolean not null default false,
  -- false = awaiting verification or suspended: refused at sign-in and on every call.
  is_verified boolean not null default false,
  auth_provider text not null check (auth_provider in ('local', 'google')),
  google_subject text unique,
  failed_pin_attempts integer not null default 0 check (failed_pin_attempts >= 0),
  pin_locked_until timestamptz,
  -- Carried in every token; a password reset bumps it, so older tokens stop working.
  session_version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint local_accounts_have_a_password check (auth_provider <> 'local' or password_hash is not null)
);
-- One account per e-mail, whatever its case (values are stored lower-cased; the index
-- also holds if a writer forgets).
create unique index users_email_unique on identity.users (lower(email));
create index users_admins on identity.users (id) where is_admin;

-- One live code per (e-mail, purpose). Rows also exist for e-mails with no account, so an
-- unknown address behaves exactly like a known one (same answers, same waits).
create table identity.one_time_codes (
  email text not null check (email = lower(email)),
  purpose text not null check (purpose in ('password', 'pin')),
  user_id text references identity.users (id) on delete cascade,
  -- HMAC-SHA256 of the code under a server-side pepper; null once voided.
  code_hash text,
  expires_at timestamptz not null,
  attempts integer not null default 0 check (attempts >= 0),
  verified_at timestamptz,
  last_sent_at timestamptz not null,
  primary key (email, purpose)
);
create index one_time_codes_expiry on identity.one_time_codes (expires_at);
`.execute(db);
}
