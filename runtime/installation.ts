/**
 * What the wallet installs beyond the versioned migrations, put together from what each domain
 * owns: the ledger's SQL definition files, then the read side's (which name the ledger's
 * tables), and every pg-boss queue. `npm run migrate` and each test database get exactly this.
 */
import { LEDGER_SQL_DEFINITIONS } from '../ledger/index.ts';
import type { Installation } from '../platform/migrate.ts';
import { PROJECTION_SQL_DEFINITIONS } from '../projections/index.ts';
import { allQueues } from './queues.ts';

export const installation: Installation = {
  sqlDefinitions: [...LEDGER_SQL_DEFINITIONS, ...PROJECTION_SQL_DEFINITIONS],
  queues: allQueues,
};
