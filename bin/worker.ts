/**
 * `npm run worker`: projection and e-mail workers alone (runtime/worker-process.ts). Run as
 * many as you like next to the API processes (`npm start` runs them in-process too).
 */
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction, exitRefused } from '../platform/production.ts';
import { stopOnSignals } from '../runtime/signals.ts';
import { startWorkerProcess } from '../runtime/worker-process.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'worker');
// What only a connection shows (production mode: a DATABASE_URL that could rewrite the ledger) arrives after a clean stop.
const worker = await startWorkerProcess(config).catch(exitRefused);
stopOnSignals((signal) => worker.stop(signal), { service: 'worker' });
