/**
 * Which live event each ledger change means for whom (pure): the receiver of a transfer or of
 * an accepted request's payment gets `money-received`, both sides of a request `request`, a
 * deposit's owner `deposit`, the payer of a disputed payment `dispute`, every wallet whose
 * money moved `balance`, and admins `admin-users` (a wallet opened at registration),
 * `admin-deposits` and `admin-disputes`. Names and balances are
 * filled in afterwards from the read tables (./changes.ts), once for all streams.
 */
import type { LiveEventData, LiveEventName } from '../../contracts/live.ts';
import { compareCheckpoints, type Checkpoint } from '../../projections/index.ts';
import type { LedgerChange } from './changes.ts';

type PlannedName = Exclude<LiveEventName, 'balance' | 'replay' | 'reset' | 'money-received'>;

export type Planned =
  | { checkpoint: Checkpoint; event: PlannedName; data: LiveEventData<PlannedName> }
  | { checkpoint: Checkpoint; event: 'money-received'; data: Omit<LiveEventData<'money-received'>, 'fromName'> };

export interface Plan {
  byUser: Map<string, Planned[]>;
  admins: Planned[];
  /** Wallets whose balance moved, with the last change that moved it. */
  balances: Map<string, Checkpoint>;
  /** Accounts whose names the `money-received` events need. */
  senders: Set<string>;
}

/** What each dispute event tells the payer about their dispute. */
const DISPUTE_STATUS = {
  DisputeRaised: 'open',
  DisputeUpheld: 'awaiting_approval',
  DisputeReopened: 'open',
  DisputeRejected: 'rejected',
} as const;

export function planDeliveries(changes: readonly LedgerChange[]): Plan {
  const plan: Plan = { byUser: new Map(), admins: [], balances: new Map(), senders: new Set() };
  for (const change of changes) planChange(plan, change);
  return plan;
}

function planChange(plan: Plan, change: LedgerChange): void {
  const { checkpoint, data } = change;
  const text = (key: string): string => String(data[key] ?? '');
  const toUser = (userId: string, planned: Omit<Planned, 'checkpoint'>): void => {
    const list = plan.byUser.get(userId) ?? [];
    list.push({ checkpoint, ...planned } as Planned);
    plan.byUser.set(userId, list);
  };
  const moved = (...userIds: string[]): void => {
    for (const userId of userIds) plan.balances.set(userId, checkpoint);
  };
  const received = (userId: string, transactionId: string, fromId: string): void => {
    plan.senders.add(fromId);
    toUser(userId, { event: 'money-received', data: { transactionId, amountPaise: text('amountPaise'), fromId } });
  };
  const request = (status: 'pending' | 'accepted' | 'rejected'): void => {
    const requestId = text('requestId');
    toUser(text('requesterId'), { event: 'request', data: { requestId, status, role: 'requester' } });
    toUser(text('payerId'), { event: 'request', data: { requestId, status, role: 'payer' } });
  };
  const deposit = (status: 'pending' | 'success' | 'failed'): void => {
    const depositId = text('depositId');
    // The event's own amount and reason (the admin's words on a failure): what the customer's toast says.
    const said = {
      ...(data.amountPaise === undefined ? {} : { amountPaise: text('amountPaise') }),
      ...(status === 'failed' ? { reason: text('reason') } : {}),
    };
    toUser(text('walletId'), { event: 'deposit', data: { depositId, status, ...said } });
    plan.admins.push({ checkpoint, event: 'admin-deposits', data: { depositId } });
  };
  // A reversal may resolve a dispute: the admins' queue is refreshed on every one.
  const disputes = (transactionId: string): void => {
    plan.admins.push({ checkpoint, event: 'admin-disputes', data: { transactionId } });
  };
  switch (change.type) {
    case 'WalletOpened':
      plan.admins.push({ checkpoint, event: 'admin-users', data: { accountId: text('accountId') } });
      return;
    case 'TransferCompleted':
      received(text('toAccountId'), text('transferId'), text('fromAccountId'));
      return moved(text('fromAccountId'), text('toAccountId'));
    case 'MoneyRequested':
      return request('pending');
    case 'MoneyRequestAccepted':
      request('accepted');
      received(text('requesterId'), text('requestId'), text('payerId'));
      return moved(text('requesterId'), text('payerId'));
    case 'MoneyRequestRejected':
      return request('rejected');
    case 'DepositRequested':
      return deposit('pending');
    case 'DepositSettled':
      deposit('success');
      return moved(text('walletId'));
    case 'DepositFailed':
      return deposit('failed');
    case 'TransferReversed':
      disputes(text('transferId'));
      return moved(text('fromAccountId'), text('toAccountId'));
    case 'DepositReversed':
      return moved(text('walletId'));
    case 'MoneyRequestPaymentReversed':
      disputes(text('requestId'));
      return moved(text('requesterId'), text('payerId'));
    case 'DisputeRaised':
    case 'DisputeUpheld':
    case 'DisputeReopened':
    case 'DisputeRejected': {
      const transactionId = text('transactionId');
      toUser(text('payerId'), { event: 'dispute', data: { transactionId, status: DISPUTE_STATUS[change.type] } });
      return disputes(transactionId);
    }
    default:
      return;
  }
}

/** The events of a plan for one stream, after its cursor, in ledger order. */
export function eventsFor(plan: Plan, recipient: { userId: string; isAdmin: boolean }, after: Checkpoint): Planned[] {
  const own = plan.byUser.get(recipient.userId) ?? [];
  const all = recipient.isAdmin ? [...own, ...plan.admins] : own;
  return all
    .filter((planned) => compareCheckpoints(planned.checkpoint, after) > 0)
    .sort((a, b) => compareCheckpoints(a.checkpoint, b.checkpoint));
}
