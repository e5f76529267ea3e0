/**
 * `npm start`: API, workers and the built web app in one process on :3000
 * (runtime/api-process.ts). With no DATABASE_URL the database is an embedded Postgres whose
 * data lives under var/. RUN_WORKERS=false runs the API alone (workers then run with
 * `npm run worker`).
 */
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction, exitRefused } from '../platform/production.ts';
import { apiRole, startApiProcess } from '../runtime/api-process.ts';
import { stopOnSignals } from '../runtime/signals.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, apiRole(config));
// The one refusal only start-up can find (production mode, no admin yet, no ADMIN_PASSWORD) arrives after a clean stop.
const api = await startApiProcess(config).catch(exitRefused);
stopOnSignals((signal) => api.stop(signal), { service: 'api' });
await api.listen();
