/**
 * Identity's public entry: users, credentials, one-time codes, the transaction PIN guard,
 * admin bootstrap and Google sign-in. api/ and runtime/ import from here.
 */
export { systemClock, type Clock } from './clock.ts';
export { IdentityRejection, isIdentityRejection, type IdentityRejectionCode } from './rejections.ts';
export { deriveKey, pinPoolQueueSize } from './secrets.ts';
export {
  accountsQuery,
  countCustomers,
  endSessions,
  findAccount,
  findAccounts,
  listAccounts,
  setVerified,
  toAccountSummary,
  toUserRecord,
  userRecordOf,
  type AccountRow,
  type AccountSummary,
  type BalanceReader,
} from './users.ts';
export { revealIdentification } from './identification.ts';
export { chooseHandle, findActivePayee } from './payees.ts';
export { registerUser } from './registration.ts';
export { signInWithPassword } from './sign-in.ts';
export {
  issueCode,
  verifyCode,
  resetPassword,
  resetTransactionPin,
  CODE_VALIDITY_MINUTES,
  MAX_CODE_ATTEMPTS,
  RESEND_WAIT_SECONDS,
  type CodeDependencies,
} from './one-time-codes.ts';
export {
  verifyTransactionPin,
  updateTransactionPin,
  MAX_PIN_ATTEMPTS,
  PIN_LOCK_STAGES,
  type PinCheckDependencies,
} from './transaction-pin.ts';
export { pinKeysFrom, type PinKeys } from './pin-verifier.ts';
export {
  adminPasswordFileName,
  createAdmin,
  ensureFirstAdmin,
  generatedAdminPasswordRefused,
  generatePassword,
  type AdminOutcome,
} from './admin.ts';
export { signInWithGoogle, googleProfileSchema, GoogleSignInRefused, type GoogleProfile } from './google.ts';
export { resolveJwtSecret } from './jwt-secret.ts';
export { resolvePinPepper } from './pin-pepper.ts';
export type { IdentityTables } from './tables.ts';
export { IDENTITY_SCHEMAS } from './tables.ts';
