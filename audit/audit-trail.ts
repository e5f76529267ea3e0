/**
 * The audit trail of admin actions (table audit.admin_actions, migrations/0001_baseline.ts):
 * who did what to which target, when and why. Callers record inside the transaction of the
 * action itself, so an action and its audit row commit or roll back together.
 * (identity/users.ts `setVerified` writes its suspend/activate rows itself: identity may not
 * import audit/.)
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AdminAction, AuditTrailPage } from '../contracts/admin.ts';
import { keysetPage } from './paging.ts';

/**
 * The schema of the admins' trail, approvals and verify runs (runtime/installation.ts lists
 * it). The trail is append-only by convention, so the runtime may insert; approval requests
 * move from pending to approved or rejected, disputes from open to rejected or reversed, and
 * replay progress rows are updated while a replay job runs.
 */
export const AUDIT_SCHEMAS = [
  {
    schema: 'audit',
    tables: ['select', 'insert'],
    updatable: ['replay_runs', 'approval_requests', 'disputes'],
    functions: false,
  },
] as const;

export interface AdminActionEntry {
  actorId: string;
  action: AdminAction;
  /** What the action was done to: a stream id, a user id, a projection name. */
  target: string;
  reason?: string | null | undefined;
  details?: Record<string, unknown>;
}

type Db = Kysely<unknown> | Transaction<unknown>;

export async function recordAdminAction(db: Db, entry: AdminActionEntry): Promise<void> {
  await sql`
    insert into audit.admin_actions (actor_id, action, target, reason, details)
    values (${entry.actorId}, ${entry.action}, ${entry.target}, ${entry.reason ?? null}, ${JSON.stringify(entry.details ?? {})}::jsonb)`.execute(
    db,
  );
}

export interface AuditTrailQuery {
  /** Keyset paging: rows with an id below this one (the previous page's `nextBefore`). */
  before?: bigint | undefined;
  limit: number;
  action?: AdminAction | undefined;
  actorId?: string | undefined;
}

/** Newest first, keyset-paged by id (stable while new actions are recorded). */
export async function listAdminActions(db: Db, query: AuditTrailQuery): Promise<AuditTrailPage> {
  const { rows } = await sql<{
    id: bigint;
    actor_id: string;
    actor_name: string | null;
    action: AdminAction;
    target: string;
    reason: string | null;
    details: Record<string, unknown>;
    recorded_at: Date;
  }>`
    select a.id, a.actor_id, d.display_name as actor_name, a.action, a.target, a.reason, a.details, a.recorded_at
      from audit.admin_actions a
      left join read.directory d on d.account_id = a.actor_id
     where (${query.before ?? null}::bigint is null or a.id < ${query.before ?? null}::bigint)
       and (${query.action ?? null}::text is null or a.action = ${query.action ?? null}::text)
       and (${query.actorId ?? null}::text is null or a.actor_id = ${query.actorId ?? null}::text)
     order by a.id desc
     limit ${query.limit + 1}`.execute(db);
  const { items, next } = keysetPage(
    rows,
    query.limit,
    (row) => row.id,
    (row) => ({
      id: String(row.id),
      actorId: row.actor_id,
      actorName: row.actor_name,
      action: row.action,
      target: row.target,
      reason: row.reason,
      details: row.details,
      recordedAt: row.recorded_at.toISOString(),
    }),
  );
  return { items, nextBefore: next };
}
