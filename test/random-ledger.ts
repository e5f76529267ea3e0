/**
 * Generates valid random ledger activity for a group of wallets (deposits requested,
 * settled or failed; transfers; money requests accepted or rejected), keeping balances so
 * no append is refused, and appends it in transactions of random size on a raw client.
 * Deterministic for a seed, so a failing run can be repeated.
 */
import type pg from 'pg';
import { withClient } from '../platform/database.ts';
import { rawAppend, transferCompleted, type RawEvent } from './raw-append.ts';

export interface Append {
  streamId: string;
  expectedVersion: number;
  events: RawEvent[];
}

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Pending {
  kind: 'deposit' | 'request';
  id: string;
  wallet: string;
  other: string;
  amount: bigint;
  method: string;
}

/** `count` appends among `wallets` (which must be open with zero balance). */
export function generateAppends(
  prefix: string,
  wallets: readonly string[],
  count: number,
  random: () => number,
): Append[] {
  const balances = new Map(wallets.map((wallet) => [wallet, 0n]));
  const pending: Pending[] = [];
  const appends: Append[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const amount = (): bigint => BigInt(1 + Math.floor(random() * 50_000));
  for (let n = 0; appends.length < count; n++) {
    const roll = random();
    const id = `${prefix}${n}`;
    if (roll < 0.25 || (pending.length === 0 && roll < 0.5)) {
      const wallet = pick(wallets);
      const kind = random() < 0.5 ? 'deposit' : 'request';
      const value = amount();
      const method = pick(['upi', 'bank_transfer', 'card']);
      if (kind === 'deposit') {
        appends.push({
          streamId: `deposit-${id}`,
          expectedVersion: -1,
          events: [
            {
              type: 'DepositRequested',
              data: {
                depositId: id,
                walletId: wallet,
                amountPaise: value.toString(),
                method,
                reference: `ref ${id} ${pick(['rent', 'food', 'Gift', 'bills'])}`,
                details: { upiId: 'x@upi' },
              },
            },
          ],
        });
        pending.push({ kind, id, wallet, other: wallet, amount: value, method });
      } else {
        const payer = pick(wallets.filter((w) => w !== wallet));
        appends.push({
          streamId: `request-${id}`,
          expectedVersion: -1,
          events: [
            {
              type: 'MoneyRequested',
              data: {
                requestId: id,
                requesterId: wallet,
                payerId: payer,
                amountPaise: value.toString(),
                reference: `ask ${id}`,
              },
            },
          ],
        });
        pending.push({ kind, id, wallet, other: payer, amount: value, method });
      }
    } else if (roll < 0.55 && pending.length > 0) {
      const item = pending.splice(Math.floor(random() * pending.length), 1)[0] as Pending;
      appends.push(answer(item, balances, random() < 0.7));
    } else {
      const from = pick(wallets);
      const to = pick(wallets.filter((w) => w !== from));
      const available = balances.get(from) ?? 0n;
      if (available === 0n) continue;
      const value = 1n + BigInt(Math.floor(random() * Number(available)));
      balances.set(from, available - value);
      balances.set(to, (balances.get(to) ?? 0n) + value);
      appends.push({
        streamId: `transfer-${id}`,
        expectedVersion: -1,
        events: [transferCompleted(id, from, to, value)],
      });
    }
  }
  return appends;
}

function answer(item: Pending, balances: Map<string, bigint>, yes: boolean): Append {
  const a = item.amount;
  if (item.kind === 'deposit') {
    const stream = `deposit-${item.id}`;
    if (!yes)
      return {
        streamId: stream,
        expectedVersion: 0,
        events: [{ type: 'DepositFailed', data: { depositId: item.id, walletId: item.wallet, reason: 'declined' } }],
      };
    balances.set(item.wallet, (balances.get(item.wallet) ?? 0n) + a);
    return {
      streamId: stream,
      expectedVersion: 0,
      events: [
        {
          type: 'DepositSettled',
          data: {
            depositId: item.id,
            walletId: item.wallet,
            amountPaise: a.toString(),
            method: item.method,
            confirmedBy: 'admin',
          },
          postings: [
            { account: `funding:${item.method}`, amount: (-a).toString() },
            { account: item.wallet, amount: a.toString() },
          ],
        },
      ],
    };
  }
  const stream = `request-${item.id}`;
  const payerBalance = balances.get(item.other) ?? 0n;
  if (!yes || payerBalance < a)
    return {
      streamId: stream,
      expectedVersion: 0,
      events: [
        { type: 'MoneyRequestRejected', data: { requestId: item.id, requesterId: item.wallet, payerId: item.other } },
      ],
    };
  balances.set(item.other, payerBalance - a);
  balances.set(item.wallet, (balances.get(item.wallet) ?? 0n) + a);
  return {
    streamId: stream,
    expectedVersion: 0,
    events: [
      {
        type: 'MoneyRequestAccepted',
        data: {
          requestId: item.id,
          requesterId: item.wallet,
          payerId: item.other,
          amountPaise: a.toString(),
          reference: `ask ${item.id}`,
        },
        postings: [
          { account: item.other, amount: (-a).toString() },
          { account: item.wallet, amount: a.toString() },
        ],
      },
    ],
  };
}

/** Appends in transactions of 1..maxPerTransaction appends each. */
export async function appendAll(
  client: pg.Client,
  appends: readonly Append[],
  random: () => number,
  maxPerTransaction = 30,
): Promise<void> {
  for (let i = 0; i < appends.length;) {
    const size = 1 + Math.floor(random() * maxPerTransaction);
    await client.query('begin');
    for (const append of appends.slice(i, i + size))
      await rawAppend(client, append.streamId, append.expectedVersion, append.events);
    await client.query('commit');
    i += size;
  }
}

export interface RandomActivity {
  /** Makes the generated stream ids unique per call. */
  prefix: string;
  wallets: readonly string[];
  count: number;
  seed: number;
  maxPerTransaction?: number;
}

/** `count` random appends among `wallets`, on a connection of its own to `url`. */
export async function appendRandomActivity(url: string, activity: RandomActivity): Promise<void> {
  await withClient(url, async (client) => {
    const random = seededRandom(activity.seed);
    await appendAll(
      client,
      generateAppends(activity.prefix, activity.wallets, activity.count, random),
      random,
      activity.maxPerTransaction,
    );
  });
}
