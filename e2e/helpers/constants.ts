/**
 * Fixed values shared by the e2e global setup and the tests: the first admin the server
 * creates at start (ADMIN_EMAIL / ADMIN_PASSWORD), the second admin the setup adds with
 * `admin:create`, and where the suite writes its output.
 */
export const E2E_ADMIN = {
  email: 'admin@wallet-e2e.example',
  password: 'e2e-admin-pass-1',
  name: 'Priya Sharma',
} as const;

/**
 * The second admin: it activates the customers, so that the first admin settles their UPI
 * deposits alone (money into an account the settling admin activated waits for another admin).
 */
export const E2E_REVIEWER = { email: 'reviewer@wallet-e2e.example', password: 'e2e-reviewer-pass-1' } as const;

/** Server log and failure screenshots. */
export const OUTPUT_DIR = 'test-output/e2e';

/** A desktop and a phone screenshot of every screen (gitignored). */
export const SCREENSHOT_DIR = 'test-output/screenshots';

/** The landing hero's product images (committed; refreshed only with E2E_HERO_SCREENSHOTS=1). */
export const HERO_DIR = 'web/public/screenshots';
