/**
 * `npm run ledger -- <command>`: the operator CLI (replay, verify, status, balance, events).
 * The commands are plain functions in cli/; this entry reads the environment and exits.
 */
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { ledgerCommand } from '../runtime/commands.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
process.exit(await ledgerCommand(process.argv.slice(2), config));
