/**
 * Property: any sequence of commands gives the same outcomes (success or rejection code)
 * and the same balances on the real ledger as on a tiny in-memory model of the rules - through
 * both entry points of the log: group commit (`ledger.append_batch`, the default) and one
 * command at a time (`ledger.append`, batching off, as inside a caller's transaction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import {
  createLedger,
  isLedgerRejection,
  MAX_DEPOSIT_PAISE,
  MAX_REQUEST_PAISE,
  MIN_DEPOSIT_PAISE,
  MIN_REQUEST_PAISE,
  MIN_TRANSFER_PAISE,
  type Ledger,
  type LedgerOptions,
  type LedgerTables,
} from './index.ts';

const WALLETS = ['a', 'b', 'c'] as const;
type Wallet = (typeof WALLETS)[number];

type Step =
  | { kind: 'deposit'; wallet: Wallet; amount: bigint; method: 'bank_transfer' | 'upi' }
  | { kind: 'settle' | 'fail'; index: number }
  | { kind: 'card'; wallet: Wallet; amount: bigint }
  | { kind: 'transfer'; from: Wallet; to: Wallet; amount: bigint }
  | { kind: 'ask'; requester: Wallet; payer: Wallet; amount: bigint }
  | { kind: 'accept' | 'reject'; index: number; actor: Wallet };

const wallet = fc.constantFrom(...WALLETS);
const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: 5_000n }),
  fc.bigInt({ min: 5_000n, max: 200_000n }),
  fc.constantFrom(0n, 99n, 100n, MAX_DEPOSIT_PAISE, MAX_DEPOSIT_PAISE + 1n, MAX_REQUEST_PAISE + 1n),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('deposit' as const),
    wallet,
    amount,
    method: fc.constantFrom('bank_transfer' as const, 'upi' as const),
  }),
  fc.record({ kind: fc.constantFrom('settle' as const, 'fail' as const), index: fc.nat(6) }),
  fc.record({ kind: fc.constant('card' as const), wallet, amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: wallet, to: wallet, amount }),
  fc.record({ kind: fc.constant('ask' as const), requester: wallet, payer: wallet, amount }),
  fc.record({ kind: fc.constantFrom('accept' as const, 'reject' as const), index: fc.nat(6), actor: wallet }),
);

/** The rules, restated as simply as possible. Outcome: 'ok' or the rejection code. */
class Model {
  balances = new Map<Wallet, bigint>(WALLETS.map((w) => [w, 0n]));
  deposits: { wallet: Wallet; amount: bigint; status: 'pending' | 'settled' | 'failed' }[] = [];
  requests: { requester: Wallet; payer: Wallet; amount: bigint; status: 'pending' | 'accepted' | 'rejected' }[] = [];

  apply(s: Step): string {
    switch (s.kind) {
      case 'deposit':
      case 'card': {
        if (s.amount < MIN_DEPOSIT_PAISE) return 'invalid_amount';
        if (s.amount > MAX_DEPOSIT_PAISE) return 'limit_exceeded';
        if (s.kind === 'card') return this.credit(s.wallet, s.amount);
        this.deposits.push({ wallet: s.wallet, amount: s.amount, status: 'pending' });
        return 'ok';
      }
      case 'settle':
      case 'fail': {
        const deposit = this.deposits[s.index];
        if (!deposit) return 'deposit_not_found';
        if (deposit.status !== 'pending') return 'deposit_not_pending';
        deposit.status = s.kind === 'settle' ? 'settled' : 'failed';
        return s.kind === 'settle' ? this.credit(deposit.wallet, deposit.amount) : 'ok';
      }
      case 'transfer': {
        if (s.from === s.to) return 'self_transfer';
        if (s.amount < MIN_TRANSFER_PAISE) return 'invalid_amount';
        return this.move(s.from, s.to, s.amount);
      }
      case 'ask': {
        if (s.requester === s.payer) return 'self_transfer';
        if (s.amount < MIN_REQUEST_PAISE) return 'invalid_amount';
        if (s.amount > MAX_REQUEST_PAISE) return 'limit_exceeded';
        this.requests.push({ requester: s.requester, payer: s.payer, amount: s.amount, status: 'pending' });
        return 'ok';
      }
      case 'accept':
      case 'reject': {
        const request = this.requests[s.index];
        if (!request) return 'request_not_found';
        if (request.payer !== s.actor) return 'not_request_receiver';
        if (request.status !== 'pending') return 'request_not_pending';
        if (s.kind === 'reject') {
          request.status = 'rejected';
          return 'ok';
        }
        const outcome = this.move(request.payer, request.requester, request.amount);
        if (outcome === 'ok') request.status = 'accepted';
        return outcome;
      }
    }
  }

  private credit(to: Wallet, amount: bigint): string {
    this.balances.set(to, (this.balances.get(to) ?? 0n) + amount);
    return 'ok';
  }

  private move(from: Wallet, to: Wallet, amount: bigint): string {
    if ((this.balances.get(from) ?? 0n) < amount) return 'insufficient_funds';
    this.balances.set(from, (this.balances.get(from) ?? 0n) - amount);
    return this.credit(to, amount);
  }
}

let testDb: TestDatabase<LedgerTables>;
let run = 0;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
});

afterAll(async () => {
  await testDb.drop();
});

async function applyToLedger(
  ledger: Ledger,
  prefix: string,
  s: Step,
  counters: { deposits: number; requests: number },
): Promise<string> {
  const id = (w: Wallet) => `${prefix}-${w}`;
  const ref = 'model step';
  const attempt = async (command: () => Promise<unknown>): Promise<string> => {
    try {
      await command();
      return 'ok';
    } catch (error) {
      if (isLedgerRejection(error)) return error.code;
      throw error;
    }
  };
  switch (s.kind) {
    case 'deposit': {
      const depositId = `${prefix}-d${counters.deposits}`;
      const details =
        s.method === 'upi'
          ? { upiId: 'x@bank' }
          : { accountNumber: '12345678', ifscCode: 'SBIN0001234', bankName: 'SBI' };
      const outcome = await attempt(() =>
        ledger.requestDeposit(
          { depositId, walletId: id(s.wallet), amountPaise: s.amount, method: s.method, reference: ref, details },
          { actorId: id(s.wallet) },
        ),
      );
      if (outcome === 'ok') counters.deposits++;
      return outcome;
    }
    case 'settle':
      return attempt(() => ledger.settleDeposit({ depositId: `${prefix}-d${s.index}` }, { actorId: 'admin' }));
    case 'fail':
      return attempt(() =>
        ledger.failDeposit({ depositId: `${prefix}-d${s.index}`, reason: 'not received' }, { actorId: 'admin' }),
      );
    case 'card':
      return attempt(() =>
        ledger.completeCardDeposit(
          {
            depositId: `${prefix}-card${Math.random()}`,
            walletId: id(s.wallet),
            amountPaise: s.amount,
            reference: ref,
            provider: 'sandbox',
            paymentId: 'p',
          },
          { actorId: 'provider:card' },
        ),
      );
    case 'transfer':
      return attempt(() =>
        ledger.transfer(
          {
            transferId: `${prefix}-t${Math.random()}`,
            fromAccountId: id(s.from),
            toAccountId: id(s.to),
            amountPaise: s.amount,
            reference: ref,
          },
          { actorId: id(s.from) },
        ),
      );
    case 'ask': {
      const requestId = `${prefix}-r${counters.requests}`;
      const outcome = await attempt(() =>
        ledger.requestMoney(
          { requestId, requesterId: id(s.requester), payerId: id(s.payer), amountPaise: s.amount, reference: ref },
          { actorId: id(s.requester) },
        ),
      );
      if (outcome === 'ok') counters.requests++;
      return outcome;
    }
    case 'accept':
      return attempt(() =>
        ledger.acceptMoneyRequest(
          { requestId: `${prefix}-r${s.index}`, payerId: id(s.actor) },
          { actorId: id(s.actor) },
        ),
      );
    case 'reject':
      return attempt(() =>
        ledger.rejectMoneyRequest(
          { requestId: `${prefix}-r${s.index}`, payerId: id(s.actor) },
          { actorId: id(s.actor) },
        ),
      );
  }
}

const ENTRY_POINTS: [string, LedgerOptions['batching']][] = [
  ['ledger.append_batch (group commit)', undefined],
  ['ledger.append (one command at a time)', false],
];

describe.each(ENTRY_POINTS)('the ledger against an in-memory model, through %s', (_entryPoint, batching) => {
  it('agrees on every outcome and every balance', async () => {
    const ledger = createLedger({ db: testDb.db, ...(batching === false ? { batching } : {}) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const prefix = `run${run++}`;
        for (const w of WALLETS)
          await ledger.openWallet({ accountId: `${prefix}-${w}`, displayName: w }, { actorId: w });
        const model = new Model();
        const counters = { deposits: 0, requests: 0 };
        for (const s of steps) {
          const expected = model.apply(s);
          const actual = await applyToLedger(ledger, prefix, s, counters);
          expect(
            actual,
            JSON.stringify(s, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
          ).toBe(expected);
        }
        const heads = await testDb.db
          .selectFrom('ledger.accounts')
          .select(['id', 'balance'])
          .where('id', 'like', `${prefix}-%`)
          .execute();
        for (const w of WALLETS)
          expect(heads.find((h) => h.id === `${prefix}-${w}`)?.balance, w).toBe(model.balances.get(w));
      }),
      { numRuns: 40, seed: 424242 },
    );
  });
});
