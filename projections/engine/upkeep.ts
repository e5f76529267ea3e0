/**
 * Projections' upkeep (Projection.upkeep): work on a projection's tables that no reply waits
 * for, run by each projection worker on a timer of its own, between the batches rather than
 * inside one - history's search index merging its pending entries. One call in flight per
 * projection and worker; a failure is logged and the next tick tries again (the batches do not
 * depend on it: without it a batch does the same work itself when it must).
 */
import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../platform/logger.ts';
import type { Projection } from './definition.ts';

export type StopUpkeep = () => Promise<void>;

export function startUpkeep(db: Kysely<unknown>, projections: readonly Projection[], log: Logger): StopUpkeep {
  const running = new Set<Promise<void>>();
  const timers = projections.flatMap((projection) => {
    const upkeep = projection.upkeep;
    if (!upkeep) return [];
    let inFlight = false;
    const tick = (): void => {
      if (inFlight) return;
      inFlight = true;
      const call = sql`select ${sql.id('projector', upkeep.function)}()`
        .execute(db)
        .then(
          () => undefined,
          (error: unknown) => log.warn({ err: error, projection: projection.name }, 'projection upkeep failed'),
        )
        .finally(() => {
          inFlight = false;
          running.delete(call);
        });
      running.add(call);
    };
    const timer = setInterval(tick, upkeep.everyMs);
    timer.unref();
    return [timer];
  });
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.allSettled([...running]);
  };
}
