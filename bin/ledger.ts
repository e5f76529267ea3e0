/**
 * `npm run ledger -- <command>`: the operator CLI (replay, verify, status, balance, events).
 * The commands are plain functions in cli/; this entry reads the environment and exits.
 */
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { runCli } from '../cli/main.ts';
import { processIo } from '../cli/io.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
const code = await runCli(process.argv.slice(2), processIo(), { DATABASE_URL: config.DATABASE_URL, DATA_DIR: config.DATA_DIR });
process.exit(code);
