/**
 * What the wallet installs beyond the versioned migrations, put together from what each domain
 * owns: the ledger's SQL definition files, then the read side's (which name the ledger's
 * tables), every pg-boss queue, and the schemas, each named by the code that owns its tables
 * with what the runtime role may do in it (the grants a migration run applies, the privileges
 * a production start checks; the schema dump covers the same schemas). `npm run migrate` and
 * each test database get exactly this.
 */
import { RATE_LIMIT_SCHEMAS } from '../api/auth/rate-limit-store.ts';
import { AUDIT_SCHEMAS } from '../audit/index.ts';
import { IDENTITY_SCHEMAS } from '../identity/index.ts';
import { LEDGER_SCHEMAS, LEDGER_SQL_DEFINITIONS } from '../ledger/index.ts';
import type { Installation } from '../platform/migrate.ts';
import type { SchemaPolicy } from '../platform/runtime-role.ts';
import { PROJECTION_SCHEMAS, PROJECTION_SQL_DEFINITIONS } from '../projections/index.ts';
import { allQueues } from './queues.ts';

const schemaPolicies: readonly SchemaPolicy[] = [
  ...AUDIT_SCHEMAS,
  ...IDENTITY_SCHEMAS,
  ...LEDGER_SCHEMAS,
  ...PROJECTION_SCHEMAS,
  ...RATE_LIMIT_SCHEMAS,
];

export const installation: Installation = {
  sqlDefinitions: [...LEDGER_SQL_DEFINITIONS, ...PROJECTION_SQL_DEFINITIONS],
  queues: allQueues,
  schemaPolicies,
  schemas: schemaPolicies.map((policy) => policy.schema),
};
