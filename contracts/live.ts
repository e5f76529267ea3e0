/**
 * The live updates stream (GET /api/users/events, text/event-stream): its event names and
 * their JSON data, shared by the server (api/live/) and the web app (web/src/lib/live-events.ts).
 * Each event's `id` is the checkpoint (`<tx_id>.<position>`) every projection had applied when
 * it was sent, so a reconnect's `Last-Event-ID` resumes after it. Amounts are paise (strings:
 * JSON has no bigint).
 */
import { z } from 'zod';
import { projectionsOverviewSchema, replayRunSchema, verifyRunSchema } from './admin-replies.ts';

const paise = z.string().meta({ description: 'An amount in paise, as a decimal string' });

export const liveEventSchemas = {
  /** The wallet's balance after the change. */
  balance: z.object({ balancePaise: paise }),
  /** A transfer (or an accepted request's payment) credited to this wallet. */
  'money-received': z.object({
    transactionId: z.string(),
    amountPaise: paise,
    fromId: z.string(),
    fromName: z.string(),
  }),
  /** A money request made, accepted or rejected, where this user is requester or payer. */
  request: z.object({
    requestId: z.string(),
    status: z.enum(['pending', 'accepted', 'rejected']),
    role: z.enum(['requester', 'payer']),
  }),
  /** One of this user's deposits was requested, settled or failed. */
  deposit: z.object({
    depositId: z.string(),
    status: z.enum(['pending', 'success', 'failed']),
    /** The amount requested or credited (absent on a failure: its event does not carry it). */
    amountPaise: paise.optional(),
    /** A failure: the reason the admin gave, for the customer to read. */
    reason: z.string().optional(),
  }),
  /**
   * A dispute of this user's payment was raised, upheld (its reversal waiting for a second
   * admin), reopened (`open` again: the second admin turned that reversal down) or rejected;
   * the reversal itself moves the balance (`balance`).
   */
  dispute: z.object({ transactionId: z.string(), status: z.enum(['open', 'awaiting_approval', 'rejected']) }),
  /** Admins: a dispute was raised or rejected, or a payment reversed (the disputes queue changed). */
  'admin-disputes': z.object({ transactionId: z.string() }),
  /** Admins: a wallet was opened (a new user may be awaiting verification). */
  'admin-users': z.object({ accountId: z.string() }),
  /** Admins: a deposit was requested, settled or failed (the pending deposits list changed). */
  'admin-deposits': z.object({ depositId: z.string() }),
  /** Admins: a projection replay's progress. */
  replay: replayRunSchema,
  /** Admins: a ledger verify run was recorded (by any admin, any API process, or the CLI). */
  verify: verifyRunSchema,
  /** Admins: every projection's status (checkpoint, lag), pushed every few seconds. */
  projections: projectionsOverviewSchema,
  /** The resume point was too old to replay: the client refetches everything. */
  reset: z.object({}),
} as const;

export type LiveEventName = keyof typeof liveEventSchemas;
export type LiveEventData<Name extends LiveEventName> = z.output<(typeof liveEventSchemas)[Name]>;

export const LIVE_EVENT_NAMES = Object.keys(liveEventSchemas) as LiveEventName[];

export function isLiveEventName(name: string): name is LiveEventName {
  return Object.hasOwn(liveEventSchemas, name);
}

/** The stream's path; the web app opens it with fetch and the Authorization header. */
export const LIVE_EVENTS_PATH = '/api/users/events';
