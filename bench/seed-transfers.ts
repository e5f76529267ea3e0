/**
 * Grows B1's ledger to a large one, fast: TransferCompleted events between B1's own wallets,
 * appended by set-based SQL (a few statements per chunk of transfers, not one call each) into
 * the ledger's own tables, with everything the ledger's append would have written: the event
 * (stream `transfer-<uuid v4>`, version 0, the command's metadata), its two postings with
 * each wallet's next account_seq and running balance, the wallet heads' balance and seq, and
 * an idempotency key (random, recorded now: inside the retention window) with the command's
 * result. Every insert names its columns, so defaults the ledger adds or changes (positions,
 * tx ids, ids) still apply. The statement trigger that checks postings sum to zero still runs.
 * Two writers share the work, each over its own half of the wallets (even and odd indexes):
 * a seeded transfer never crosses the halves, which the measured transfers do not notice.
 */
import { sql, type Kysely } from 'kysely';

export interface SeedTransfersOptions {
  /** Total events wanted in ledger.events when done (transfers are added until then). */
  targetEvents: number;
  /** B1's wallets are `${prefix}0` .. `${prefix}${wallets - 1}`. */
  walletPrefix: string;
  wallets: number;
  log: (line: string) => void;
}

export interface SeededTransfers {
  eventsBefore: number;
  eventsAfter: number;
  transfersAdded: number;
  seconds: number;
  /** Of which VACUUM ANALYZE (what autovacuum would have done after such growth). */
  vacuumSeconds: number;
}

/** Transfers per transaction: large enough that commits and round trips do not matter. */
const CHUNK = 100_000;
/**
 * Concurrent writers, each over its own wallets (index mod WRITERS), so their head updates
 * never wait on each other (the machines have 2 cores).
 */
const WRITERS = 2;
/** Amounts stay small against the wallets' funding, so no running balance can go negative. */
const MAX_AMOUNT_PAISE = 1_000;

export async function seedTransfers(db: Kysely<unknown>, options: SeedTransfersOptions): Promise<SeededTransfers> {
  const started = performance.now();
  const eventsBefore = await countEvents(db);
  const wanted = Math.max(0, options.targetEvents - eventsBefore);
  options.log(
    `B1 large ledger: appending ${wanted.toLocaleString()} transfers to ${eventsBefore.toLocaleString()} events, ${CHUNK.toLocaleString()} per transaction...`,
  );
  const chunks = Array.from({ length: Math.ceil(wanted / CHUNK) }, (_, index) =>
    Math.min(CHUNK, wanted - index * CHUNK),
  );
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let index = writer; index < chunks.length; index += WRITERS)
        await appendChunk(db, chunks[index] ?? 0, writer, options);
    }),
  );
  const vacuumStarted = performance.now();
  for (const table of ['events', 'postings', 'accounts', 'idempotency_keys'])
    await sql`vacuum analyze ${sql.table(`ledger.${table}`)}`.execute(db);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const eventsAfter = await countEvents(db);
  return {
    eventsBefore,
    eventsAfter,
    transfersAdded: eventsAfter - eventsBefore,
    seconds: (performance.now() - started) / 1000,
    vacuumSeconds,
  };
}

export async function countEvents(db: Kysely<unknown>): Promise<number> {
  // A count, not max(position): identity values burnt by rolled-back appends leave gaps.
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from ledger.events`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** One transaction: the chunk's transfers drawn, then events, postings, heads and keys written set-wise. */
async function appendChunk(
  db: Kysely<unknown>,
  count: number,
  writer: number,
  options: SeedTransfersOptions,
): Promise<void> {
  const walletsPerWriter = Math.floor(options.wallets / WRITERS);
  await db.transaction().execute(async (trx) => {
    await sql`
      create temp table seed_transfers on commit drop as
      -- Numbered in id order, so the chunk's stream ids enter their index in one sweep, not at random pages.
      select row_number() over (order by transfer_id) as i, *
        from (select gen_random_uuid()::text as transfer_id, gen_random_uuid()::text as idempotency_key,
                     ${options.walletPrefix} || (f * ${WRITERS} + ${writer}) as from_id,
                     ${options.walletPrefix} || (((f + 1 + floor(random() * (${walletsPerWriter} - 1))::int) % ${walletsPerWriter}) * ${WRITERS} + ${writer}) as to_id,
                     (100 + floor(random() * ${MAX_AMOUNT_PAISE - 100}))::bigint as amount,
                     (array['Rent', 'Groceries', 'Dinner', 'Birthday gift', 'Electricity bill', 'School fees',
                            'Movie tickets', 'Taxi', 'Chai', 'Gym'])[1 + n % 10] as reference
                from (select n, floor(random() * ${walletsPerWriter})::int as f from generate_series(1, ${count}) n) drawn) drawn`.execute(
      trx,
    );
    await sql`analyze seed_transfers`.execute(trx);
    await sql`create temp table seed_events (i bigint, position bigint) on commit drop`.execute(trx);
    // Positions are handed out in the order rows are produced: the ORDER BY keeps them in i order.
    await sql`
      with inserted as (
        insert into ledger.events (stream_id, stream_version, type, data, metadata)
        select 'transfer-' || t.transfer_id, 0, 'TransferCompleted',
               jsonb_build_object('transferId', t.transfer_id, 'fromAccountId', t.from_id, 'toAccountId', t.to_id,
                                  'amountPaise', t.amount::text, 'reference', t.reference),
               jsonb_build_object('command', 'transfer', 'actorId', t.from_id, 'idempotencyKey', t.idempotency_key)
          from seed_transfers t
         order by t.i
        returning position, stream_id)
      insert into seed_events (i, position)
      select t.i, inserted.position from inserted join seed_transfers t on inserted.stream_id = 'transfer-' || t.transfer_id`.execute(
      trx,
    );
    await sql`analyze seed_events`.execute(trx);
    // Each wallet's lines continue its head: the next seqs, and running balances from its balance.
    await sql`
      insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
      select l.position, l.account_id, l.amount,
             a.seq + row_number() over w,
             a.balance + sum(l.amount) over (w rows unbounded preceding)
        from (select e.position, t.from_id as account_id, -t.amount as amount from seed_transfers t join seed_events e using (i)
              union all
              select e.position, t.to_id, t.amount from seed_transfers t join seed_events e using (i)) l
        join ledger.accounts a on a.id = l.account_id
      window w as (partition by l.account_id order by l.position)
       order by l.account_id, l.position`.execute(trx);
    const { rows } = await sql<{ negative: string }>`
      select count(*)::text as negative from ledger.postings p join seed_events e using (position)
       where p.balance_after < 0`.execute(trx);
    if (rows[0]?.negative !== '0') throw new Error(`seed: ${rows[0]?.negative} postings would overdraw a wallet`);
    await sql`
      update ledger.accounts a set balance = a.balance + s.amount, seq = a.seq + s.lines
        from (select account_id, sum(amount) as amount, count(*) as lines
                from ledger.postings p join seed_events e using (position) group by account_id) s
       where a.id = s.account_id`.execute(trx);
    // The key's record is what ledger.append_batch keeps for a transfer.
    await sql`
      insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
      select t.from_id, t.idempotency_key, 'transfer',
             sha256(convert_to('transfer' || chr(10) || jsonb_build_object('fromAccountId', t.from_id, 'toAccountId', t.to_id,
                                'amountPaise', t.amount::text, 'reference', t.reference)::text, 'UTF8')),
             jsonb_build_object('positions', jsonb_build_array(e.position))
        from seed_transfers t join seed_events e using (i)
       -- In index order (idempotency_keys_by_digest), for the same reason.
       order by ledger.idempotency_digest(t.from_id, t.idempotency_key)`.execute(trx);
  });
}
