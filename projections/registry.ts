/**
 * Every projection, by name.
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
