/**
 * `npm run migrate`: applies pending migrations (forward-only), creates job queues and
 * (re)applies the runtime role's grants, as the owner (runtime/commands.ts).
 */
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { migrateCommand } from '../runtime/commands.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
await migrateCommand(config);
