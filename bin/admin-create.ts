/**
 * `npm run admin:create -- --email <address> [--first-name A --last-name B]`: creates an
 * admin account (verified, with its own wallet), or makes the existing account with that
 * e-mail an admin - with a new password: the registrant's password, PIN and sessions end.
 * The password comes from ADMIN_PASSWORD, or is generated into
 * `<DATA_DIR>/admin-password-<email>` (0600; in production mode only with
 * ALLOW_GENERATED_ADMIN_PASSWORD=true) and never printed (nor taken from the command line,
 * where other users could read it). Without --email, ADMIN_EMAIL is used.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction, exitRefused } from '../platform/production.ts';
import { createAdminCommand } from '../runtime/commands.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
  strict: true,
});

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
await createAdminCommand(config, {
  email: values.email,
  firstName: values['first-name'],
  lastName: values['last-name'],
}).catch(exitRefused);
