/**
 * Row types of the identity schema (migrations/0001_baseline.ts). Rows stay apart from the
 * wire shape (contracts/users.ts UserRecord): hashes never leave this module's queries.
 */
import type { ColumnType, Generated } from 'kysely';

/** The schema of these tables, which the runtime writes row by row (runtime/installation.ts lists it). */
export const IDENTITY_SCHEMAS = [
  { schema: 'identity', tables: ['select', 'insert', 'update', 'delete'], functions: false },
] as const;

export type AuthProvider = 'local' | 'google';
export type CodePurpose = 'password' | 'pin';

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  contact_no: string | null;
  identification: string | null;
  identification_number: string | null;
  address: string | null;
  password_hash: string | null;
  pin_hash: string | null;
  is_admin: Generated<boolean>;
  is_verified: Generated<boolean>;
  auth_provider: AuthProvider;
  google_subject: string | null;
  failed_pin_attempts: Generated<number>;
  /** HMAC-SHA256 under the pin pepper (identity/pin-verifier.ts); null until the server saw the plain PIN. */
  pin_verifier: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  pin_verifier_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last lockout stage: only an e-mailed PIN reset unlocks money commands. */
  pin_reset_required: Generated<boolean>;
  /** `asha@wallet`: how others pay this user (identity/payees.ts); set once, unique. */
  handle: ColumnType<string | null, string | null | undefined, string | null>;
  pin_locked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  session_version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OneTimeCodeRow {
  email: string;
  purpose: CodePurpose;
  user_id: string | null;
  code_hash: string | null;
  expires_at: Date;
  attempts: Generated<number>;
  verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_sent_at: Date;
}

/** Codes issued per address, purpose and UTC day (the daily cap). */
export interface CodeIssueRow {
  email: string;
  purpose: CodePurpose;
  /** 'YYYY-MM-DD' (UTC). */
  day: ColumnType<Date, string, never>;
  issued: number;
}

export interface IdentityTables {
  'identity.users': UserRow;
  'identity.one_time_codes': OneTimeCodeRow;
  'identity.code_issues': CodeIssueRow;
}
