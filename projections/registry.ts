/**
 * Every projection, by name.
 */
import { accountsProjection } from './accounts/projection.ts';
import type { Projection, ProjectionName } from './engine/definition.ts';
import { historyProjection } from './history/projection.ts';
import { moneyRequestsProjection } from './money-requests/projection.ts';
import { statementsProjection } from './statements/projection.ts';

export const PROJECTIONS: readonly Projection[] = [
  accountsProjection,
  historyProjection,
  moneyRequestsProjection,
  statementsProjection,
];

export function projectionNamed(name: ProjectionName): Projection {
  const projection = PROJECTIONS.find((candidate) => candidate.name === name);
  if (!projection) throw new Error(`unknown projection ${name}`);
  return projection;
}
