/**
 * `npm run admin:create -- --email <address> [--first-name A --last-name B]`: creates an
 * admin account (verified, with its own wallet), or makes the existing account with that
 * e-mail an admin. The password comes from ADMIN_PASSWORD, or is generated and printed once
 * (it is never taken from the command line, where other users could read it). Without
 * --email, ADMIN_EMAIL is used.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
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
});
