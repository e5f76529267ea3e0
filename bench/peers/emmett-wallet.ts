/**
 * B1's peer: the same wallet transfers written the way @event-driven-io/emmett-postgresql
 * (0.42.0) documents an event-sourced model - a stream per wallet, a Decider run by
 * DeciderCommandHandler (the stream read and folded, the decision, the append under the
 * stream version it read, retried on a version conflict) and an inline Pongo projection of
 * the balances, written in the append's transaction.
 *
 * NOT ATOMIC ACROSS THE TWO WALLETS. Emmett 0.42.0 appends to one stream per call, each
 * append in a transaction of its own (appendToStream runs `pool.withTransaction`). Its
 * `withSession` only pins one connection (`pool.withConnection`): two appends in a session
 * are two transactions, and the documentation's "Both succeed or both fail" for a session
 * (docs/event-stores/postgresql.md, "Transactions") does not hold for this version. Nor can
 * an append join a transaction of the caller's. So a transfer is what the documentation
 * supports: two handled commands, the debit of the sender's wallet (with the balance check)
 * and then the credit of the receiver's, each atomic on its own stream, each with optimistic
 * concurrency and retries. A credit that still fails after its retries leaves money debited
 * and never credited: it is counted (`debitedNotCredited`), never repaired. Our ledger appends
 * the transfer, both postings and both wallets' balances in one transaction.
 *
 * Loaded only in the peer's own process (emmett-process.ts): dumbo, under emmett, replaces
 * the `pg` module's json/jsonb parsers for the whole process.
 */
import {
  CommandHandlerStreamVersionConflictRetryOptions,
  DeciderCommandHandler,
  IllegalStateError,
  projections,
  type AsyncRetryOptions,
  type Command,
  type Event,
  type ReadEvent,
} from '@event-driven-io/emmett';
import {
  getPostgreSQLEventStore,
  pongoSingleStreamProjection,
  type PostgresEventStore,
} from '@event-driven-io/emmett-postgresql';
import { pongoClient } from '@event-driven-io/pongo';
import pg from 'pg';

export type WalletEvent =
  | Event<'WalletOpened', { walletId: string }>
  | Event<'WalletFunded', { depositId: string; amountPaise: number }>
  | Event<'WalletDebited', { transferId: string; toWalletId: string; amountPaise: number }>
  | Event<'WalletCredited', { transferId: string; fromWalletId: string; amountPaise: number }>;

export type WalletCommand =
  | Command<'OpenWallet', { walletId: string; openingPaise: number }>
  | Command<'DebitWallet', { transferId: string; toWalletId: string; amountPaise: number }>
  | Command<'CreditWallet', { transferId: string; fromWalletId: string; amountPaise: number }>;

interface Wallet {
  opened: boolean;
  balancePaise: number;
}

const initialState = (): Wallet => ({ opened: false, balancePaise: 0 });

function evolve(state: Wallet, event: WalletEvent): Wallet {
  switch (event.type) {
    case 'WalletOpened':
      return { opened: true, balancePaise: 0 };
    case 'WalletFunded':
    case 'WalletCredited':
      return { ...state, balancePaise: state.balancePaise + event.data.amountPaise };
    case 'WalletDebited':
      return { ...state, balancePaise: state.balancePaise - event.data.amountPaise };
  }
}

function decide(command: WalletCommand, state: Wallet): WalletEvent | WalletEvent[] {
  switch (command.type) {
    case 'OpenWallet': {
      if (state.opened) throw new IllegalStateError(`wallet ${command.data.walletId} is already open`);
      const { walletId, openingPaise } = command.data;
      return [
        { type: 'WalletOpened', data: { walletId } },
        { type: 'WalletFunded', data: { depositId: `seed-${walletId}`, amountPaise: openingPaise } },
      ];
    }
    case 'DebitWallet': {
      if (!state.opened) throw new IllegalStateError('the sender has no wallet');
      if (state.balancePaise < command.data.amountPaise) throw new IllegalStateError('insufficient funds');
      return { type: 'WalletDebited', data: command.data };
    }
    case 'CreditWallet': {
      if (!state.opened) throw new IllegalStateError('the receiver has no wallet');
      return { type: 'WalletCredited', data: command.data };
    }
  }
}

/** Pongo collection of the balances (the inline projection's read model). */
export const BALANCES_COLLECTION = 'wallet_balances';

// A type, not an interface: Pongo's documents need an index signature.
type BalanceDocument = { balancePaise: number };

function evolveBalance(document: BalanceDocument | null, event: ReadEvent<WalletEvent>): BalanceDocument | null {
  const balancePaise = document?.balancePaise ?? 0;
  switch (event.type) {
    case 'WalletOpened':
      return { balancePaise: 0 };
    case 'WalletFunded':
    case 'WalletCredited':
      return { balancePaise: balancePaise + event.data.amountPaise };
    case 'WalletDebited':
      return { balancePaise: balancePaise - event.data.amountPaise };
  }
}

/** One document per wallet stream, updated in the transaction of every append to it. */
const balancesProjection = pongoSingleStreamProjection<BalanceDocument, WalletEvent>({
  collectionName: BALANCES_COLLECTION,
  canHandle: ['WalletOpened', 'WalletFunded', 'WalletDebited', 'WalletCredited'],
  evolve: evolveBalance,
});

export interface WalletPeer {
  /** Opens a wallet and funds it (two events, one append). */
  open(walletId: string, openingPaise: number): Promise<void>;
  /** Debit then credit: two appends, two transactions (see the file's comment). */
  transfer(transferId: string, fromWalletId: string, toWalletId: string, amountPaise: number): Promise<void>;
  /** What the runs so far cost in retries and in half-done transfers. */
  counters(): { conflictRetries: number; debitedNotCredited: number };
  /** The balances read model, summed and counted. */
  projectedBalances(): Promise<{ documents: number; totalPaise: number }>;
  close(): Promise<void>;
}

/**
 * The retry the command-handling guide shows for a version conflict ({ onVersionConflict }),
 * with a backoff for contention: emmett's default (3 retries from 100 ms) turns most transfers
 * between 10 hot wallets into errors at 32 clients. Same predicate (isExpectedVersionConflictError).
 */
const VERSION_CONFLICT_RETRY: AsyncRetryOptions = {
  ...CommandHandlerStreamVersionConflictRetryOptions,
  retries: 20,
  minTimeout: 1,
  maxTimeout: 50,
  factor: 2,
};

export function createWalletPeer(connectionString: string, maxConnections: number): WalletPeer {
  let conflictRetries = 0;
  let debitedNotCredited = 0;
  const handle = DeciderCommandHandler<Wallet, WalletCommand, WalletEvent>({
    decide,
    evolve,
    initialState,
    mapToStreamId: (walletId) => `wallet-${walletId}`,
    retry: {
      onVersionConflict: {
        ...VERSION_CONFLICT_RETRY,
        onRetry: () => {
          conflictRetries++;
        },
      },
    },
  });
  // The same pool size as the ledger's (clients + 4); emmett's own default is pg's 10.
  const pool = new pg.Pool({ connectionString, max: maxConnections, application_name: 'bench-emmett' });
  const store: PostgresEventStore = getPostgreSQLEventStore(connectionString, {
    projections: projections.inline([balancesProjection]),
    connectionOptions: { pooled: true, pool },
  });
  return {
    async open(walletId, openingPaise) {
      await handle(store, walletId, { type: 'OpenWallet', data: { walletId, openingPaise } });
    },
    async transfer(transferId, fromWalletId, toWalletId, amountPaise) {
      await handle(store, fromWalletId, { type: 'DebitWallet', data: { transferId, toWalletId, amountPaise } });
      try {
        await handle(store, toWalletId, { type: 'CreditWallet', data: { transferId, fromWalletId, amountPaise } });
      } catch (error) {
        debitedNotCredited++;
        throw error;
      }
    },
    counters: () => ({ conflictRetries, debitedNotCredited }),
    async projectedBalances() {
      const pongo = pongoClient(connectionString, { connectionOptions: { pooled: true, pool } });
      try {
        const documents = await pongo.db().collection<BalanceDocument>(BALANCES_COLLECTION).find({});
        return {
          documents: documents.length,
          totalPaise: documents.reduce((sum, document) => sum + document.balancePaise, 0),
        };
      } finally {
        await pongo.close();
      }
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}
