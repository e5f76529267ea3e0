/**
 * `npm run admin:create -- --email <address> [--first-name A --last-name B]`: creates an
 * admin account (verified, with its own wallet), or makes the existing account with that
 * e-mail an admin. The password comes from ADMIN_PASSWORD, or is generated and printed once
 * (it is never taken from the command line, where other users could read it). Without
 * --email, ADMIN_EMAIL is used.
 */
import { parseArgs } from 'node:util';
import { createAdmin } from '../identity/index.ts';
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { startSystem } from '../runtime/system.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
  strict: true,
});

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
const system = await startSystem(config, { role: 'cli' });
try {
  const outcome = await createAdmin(system.db, system.ledger, {
    email: values.email ?? config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
    ...(values['first-name'] ? { firstName: values['first-name'] } : {}),
    ...(values['last-name'] ? { lastName: values['last-name'] } : {}),
  });
  switch (outcome.status) {
    case 'created':
      console.log(`Admin created: ${outcome.email} (account ${outcome.userId})`);
      if (outcome.generatedPassword) console.log(`Generated password (shown once): ${outcome.generatedPassword}`);
      break;
    case 'promoted':
      console.log(`Existing account ${outcome.email} (${outcome.userId}) is now a verified admin; its password is unchanged`);
      break;
    case 'exists':
      console.log(`${outcome.email} is already an admin; nothing changed`);
      break;
  }
} finally {
  await system.stop();
}
