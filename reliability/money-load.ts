/**
 * Shared pieces of the crash and load tests: users created and funded over HTTP, transfer
 * clients that retry one Idempotency-Key until a definite answer, and the end-of-run checks
 * (each successful transfer in the ledger exactly once, no other money moved, verifyLedger
 * clean, read model equal to the ledger heads) after the projections converge.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { verifyLedger } from '../audit/index.ts';
import { VALID_REGISTRATION } from '../test/app-harness.ts';
import { waitUntil } from '../test/wait.ts';
import { callUntilDefinite, RELIABILITY_ADMIN, type Reply } from './processes.ts';

export interface Wallet {
  id: string;
  email: string;
  token: string;
}

export interface TransferOutcome {
  transactionId: string;
  fromId: string;
  toId: string;
  amountPaise: bigint;
  attempts: number;
}

export interface LoadResult {
  succeeded: TransferOutcome[];
  rejected: Map<string, number>;
  retried: number;
  fiveHundreds: Reply[];
  /** Attempts that got no HTTP answer, by the API base URL they went to. */
  networkErrors: Map<string, number>;
}

const PIN = '1234';
export const DEPOSIT_RUPEES = 10_000;

export async function signInOver(
  baseUrl: () => string,
  email: string,
  password: string,
  deadline: number,
): Promise<string> {
  const reply = await callUntilDefinite(
    'POST',
    '/api/users/login',
    { body: { email, password } },
    { baseUrl, deadline },
  );
  if (reply.status !== 200 || typeof reply.body.data !== 'string')
    throw new Error(`login ${email}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

export interface WalletOptions {
  /** What registration sends as transactionPin: the plain PIN (our web app) or a browser-made bcrypt hash of it (the spec's client). */
  registrationPin?: string;
  /** false: registered, activated and signed in, but no deposit (a deposit would check the PIN). */
  fund?: boolean;
}

/**
 * Registers, activates (admin), signs in and funds (a sandbox card deposit, credited at once)
 * each wallet. Not a UPI deposit settled by the admin: the admin activated these wallets, so
 * money into them waits for a second admin, and one admin's settlements alone over 24 hours
 * stop at the approval threshold (admin-actions/money-actions.ts).
 */
export async function createFundedWallets(
  baseUrl: () => string,
  count: number,
  deadline: number,
  options: WalletOptions = {},
): Promise<{ admin: string; wallets: Wallet[] }> {
  const admin = await signInOver(baseUrl, RELIABILITY_ADMIN.email, RELIABILITY_ADMIN.password, deadline);
  const definite = { baseUrl, deadline };
  const wallets: Wallet[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `load${index}-${randomUUID().slice(0, 8)}@example.in`;
    const registered = await callUntilDefinite(
      'POST',
      '/api/users/register',
      { body: { ...VALID_REGISTRATION, email, transactionPin: options.registrationPin ?? PIN } },
      definite,
    );
    if (registered.status !== 201) throw new Error(`register: ${JSON.stringify(registered.body)}`);
    wallets.push({ id: '', email, token: '' });
  }
  const users = await callUntilDefinite('GET', '/api/users/get-all-users', { token: admin }, definite);
  const listed = users.body.data as { _id: string; email: string }[];
  for (const wallet of wallets) {
    const user = listed.find((candidate) => candidate.email === wallet.email);
    if (!user) throw new Error(`${wallet.email} not listed`);
    wallet.id = user._id;
    const activated = await callUntilDefinite(
      'POST',
      '/api/users/update-user-verified-status',
      { token: admin, body: { selectedUser: wallet.id, isVerified: true } },
      definite,
    );
    if (activated.status !== 200) throw new Error(`activate: ${JSON.stringify(activated.body)}`);
    wallet.token = await signInOver(baseUrl, wallet.email, VALID_REGISTRATION.password, deadline);
    if (options.fund === false) continue;
    const key = { 'idempotency-key': `deposit-${wallet.id}` };
    const deposit = await callUntilDefinite(
      'POST',
      '/api/transactions/deposit-funds',
      {
        token: wallet.token,
        headers: key,
        body: {
          amount: DEPOSIT_RUPEES,
          reference: 'load',
          transactionPin: PIN,
          paymentMethod: 'card',
          paymentMethodId: 'pm_card_visa',
        },
      },
      definite,
    );
    if (deposit.status !== 200) throw new Error(`deposit: ${JSON.stringify(deposit.body)}`);
  }
  return { admin, wallets };
}

/**
 * `clients` concurrent loops of transfers between random wallets until `stop()` says so;
 * each transfer keeps its own Idempotency-Key through every retry.
 */
export async function runTransferClients(options: {
  clients: number;
  wallets: Wallet[];
  baseUrl: () => string;
  stop: () => boolean;
  deadline: number;
  timeoutMs?: number;
}): Promise<LoadResult> {
  const result: LoadResult = {
    succeeded: [],
    rejected: new Map(),
    retried: 0,
    fiveHundreds: [],
    networkErrors: new Map(),
  };
  const client = async (): Promise<void> => {
    while (!options.stop()) {
      const from = options.wallets[randomInt(options.wallets.length)] as Wallet;
      let to = options.wallets[randomInt(options.wallets.length)] as Wallet;
      while (to === from) to = options.wallets[randomInt(options.wallets.length)] as Wallet;
      const amountPaise = BigInt(randomInt(100, 5_000));
      const reply = await callUntilDefinite(
        'POST',
        '/api/transactions/transfer-funds',
        {
          token: from.token,
          headers: { 'idempotency-key': randomUUID() },
          body: { receiver: to.id, amount: Number(amountPaise) / 100, reference: 'load', transactionPin: PIN },
          timeoutMs: options.timeoutMs,
        },
        {
          baseUrl: options.baseUrl,
          deadline: options.deadline,
          on5xx: (fiveHundred) => result.fiveHundreds.push(fiveHundred),
          onNetworkError: (url) => result.networkErrors.set(url, (result.networkErrors.get(url) ?? 0) + 1),
        },
      );
      if (reply.attempts > 1) result.retried += 1;
      if (reply.status === 200 && reply.body.success === true) {
        const { transactionId } = reply.body.data as { transactionId: string };
        result.succeeded.push({ transactionId, fromId: from.id, toId: to.id, amountPaise, attempts: reply.attempts });
      } else {
        const code = reply.body.code ?? String(reply.status);
        result.rejected.set(code, (result.rejected.get(code) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, () => client()));
  return result;
}

/**
 * Waits until every projection's checkpoint has reached the last event of the log. "Last" is
 * in the projector's order, (tx_id, position): the event with the largest position can belong
 * to an older transaction, so comparing positions alone could wait forever.
 */
export async function waitForProjections(db: Kysely<unknown>, timeoutMs: number): Promise<void> {
  let last: string | null | undefined;
  await waitUntil(
    'every projection to reach the last event of the log',
    async () => {
      const { rows } = await sql<{ behind: number; last: string | null }>`
      with last as (select tx_id, position from ledger.events order by tx_id desc, position desc limit 1)
      select (select count(*)::int from read.checkpoints c, last l where (c.tx_id, c.position) < (l.tx_id, l.position)) as behind,
             (select tx_id::text || '.' || position::text from last) as last`.execute(db);
      last = rows[0]?.last;
      return rows[0]?.behind === 0;
    },
    {
      timeoutMs,
      intervalMs: 250,
      detail: async () => {
        const { rows: checkpoints } = await sql<{ projection: string; checkpoint: string; last_error: string | null }>`
        select projection, tx_id::text || '.' || position::text as checkpoint, last_error from read.checkpoints`.execute(
          db,
        );
        return `the last event: ${last}; the checkpoints: ${JSON.stringify(checkpoints)}`;
      },
    },
  );
}

export interface InvariantReport {
  /** Transfer ids answered "success" that are not in the ledger exactly once. */
  notExactlyOnce: string[];
  /** TransferCompleted events no client was told succeeded. */
  unexplained: string[];
  /** Wallets whose ledger head, read-model balance or expected balance disagree. */
  balanceMismatches: string[];
  verifyDifferences: string[];
}

/** The end-of-run checks, with the projections already converged. */
export async function checkInvariants(
  db: Kysely<unknown>,
  wallets: readonly Wallet[],
  succeeded: readonly TransferOutcome[],
): Promise<InvariantReport> {
  const { rows: completed } = await sql<{ id: string; n: number }>`
    select data->>'transferId' as id, count(*)::int as n from ledger.events where type = 'TransferCompleted' group by 1`.execute(
    db,
  );
  const inLedger = new Map(completed.map((row) => [row.id, row.n]));
  const told = new Set(succeeded.map((transfer) => transfer.transactionId));
  const notExactlyOnce = succeeded
    .filter((transfer) => inLedger.get(transfer.transactionId) !== 1)
    .map((transfer) => `${transfer.transactionId} x${inLedger.get(transfer.transactionId) ?? 0}`);
  const unexplained = completed.filter((row) => !told.has(row.id)).map((row) => `${row.id} x${row.n}`);

  const expected = new Map(wallets.map((wallet) => [wallet.id, BigInt(DEPOSIT_RUPEES) * 100n]));
  for (const transfer of succeeded) {
    expected.set(transfer.fromId, (expected.get(transfer.fromId) ?? 0n) - transfer.amountPaise);
    expected.set(transfer.toId, (expected.get(transfer.toId) ?? 0n) + transfer.amountPaise);
  }
  const { rows: balances } = await sql<{ id: string; head: string | null; projected: string | null }>`
    select a.id, a.balance::text as head, b.balance_paise::text as projected
      from ledger.accounts a left join read.balances b on b.account_id = a.id
     where a.kind = 'wallet'`.execute(db);
  const balanceMismatches: string[] = [];
  for (const row of balances) {
    if (row.head !== row.projected) balanceMismatches.push(`${row.id}: head ${row.head} read model ${row.projected}`);
    const want = expected.get(row.id);
    if (want !== undefined && BigInt(row.head ?? '0') !== want)
      balanceMismatches.push(`${row.id}: head ${row.head} expected ${want}`);
  }
  const report = await verifyLedger(db);
  return { notExactlyOnce, unexplained, balanceMismatches, verifyDifferences: report.differences };
}
