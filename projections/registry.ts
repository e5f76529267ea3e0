/**
 * Every projection, by name, and which of them replies wait for.
 */
import { accountsProjection } from './accounts/projection.ts';
import type { Projection, ProjectionName } from './engine/definition.ts';
import { historyProjection } from './history/projection.ts';
import { moneyRequestsProjection } from './money-requests/projection.ts';
import { statementDaysProjection } from './statement-days/projection.ts';

export const PROJECTIONS: readonly Projection[] = [
  accountsProjection,
  historyProjection,
  moneyRequestsProjection,
  statementDaysProjection,
];

export function projectionNamed(name: ProjectionName): Projection {
  const projection = PROJECTIONS.find((candidate) => candidate.name === name);
  if (!projection) throw new Error(`unknown projection ${name}`);
  return projection;
}

/** The projections some command's reply waits for (decision 0004); the live events follow them. */
export const AWAITED_PROJECTIONS: readonly ProjectionName[] = PROJECTIONS.filter((p) => !p.deferred).map((p) => p.name);

/** The projections no reply waits for: a read of one catches up first. */
export const DEFERRED_PROJECTIONS: readonly ProjectionName[] = PROJECTIONS.filter((p) => p.deferred).map((p) => p.name);
