/**
 * Who the tests connect as: the runtime login (a member of wallet_runtime, made by the
 * template's migration run in test/global-setup.ts), or the server's superuser as the owner.
 */

/**
 * Roles are cluster-wide: on a shared server (the machines' PostgreSQL 15) this one outlives
 * the run, so its password is fixed, and reset by every run.
 */
export const TEST_RUNTIME_LOGIN = { user: 'wallet_test_app', password: 'wallet-test-app-0123456789' };

export { withLogin } from '../platform/runtime-role.ts';
