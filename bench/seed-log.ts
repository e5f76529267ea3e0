/**
 * A large, valid ledger log for B4/B5, fast: every append still goes through
 * `ledger.append` (funds check, postings summing to zero, stream versions, account kinds),
 * but the appends are made by a PL/pgSQL loop on the server, thousands per transaction, so
 * a million events cost no million round trips and no million commits.
 *
 * The mix: wallets opened (head + WalletOpened, as openWallet does) and funded by card
 * (DepositRequested + DepositSettled in one append, as completeCardDeposit does); then, per
 * activity index: transfers (most), UPI / bank deposits left pending and settled or failed
 * one chunk later, money requests accepted or rejected one chunk later, and the "hub"
 * user's transfers with other wallets (B5's reader), there and back again in equal pairs.
 *
 * The event JSON is built in SQL, so before seeding a few specimens of every kind are made
 * through the real ledger commands, and afterwards every seeded event type must have exactly
 * the data shape (keys and JSON types) of its specimens: the projections see what commands
 * write.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { createLedger, rupees, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';

export interface SeedOptions {
  /** Events wanted in the log, roughly (the mix rounds it). */
  events: number;
  /** Wallets besides the hub. */
  wallets: number;
  /** Transfers the hub takes part in (its history rows, less its funding deposit). */
  hubTransfers: number;
  log: (line: string) => void;
}

export interface SeededLog {
  events: number;
  hubAccountId: string;
  seconds: number;
}

/** Concurrent seeding connections, over disjoint wallets (the machines have 2 cores). */
const SEED_WRITERS = 2;
/** Activity indices per transaction: large enough that commits do not matter. */
const CHUNK = 10_000;
/** Each wallet's card deposit; activity amounts stay below MAX_AMOUNT_PAISE. */
const FUNDING_PAISE = rupees(100_000);
const MAX_AMOUNT_PAISE = 5_000n;
/** Events per activity index: 1, plus the answer of 3 in 20 (a deposit and two requests). */
const EVENTS_PER_INDEX = 1.15;

export const HUB_ACCOUNT_ID = 'seed-hub';

export async function seedLog(db: Kysely<unknown>, url: string, options: SeedOptions): Promise<SeededLog> {
  const started = performance.now();
  await seedSpecimens(db);
  const setupEvents = (options.wallets + 1) * 3 + 20;
  const indices = Math.max(CHUNK, Math.round((options.events - setupEvents) / EVENTS_PER_INDEX));
  // Every wallet sends about 3/4 of its share of the indices (transfers) plus accepted
  // requests; none may run out of money, or the whole chunk rolls back.
  const outgoingPerWallet = BigInt(Math.ceil((indices * 0.9) / options.wallets));
  if (outgoingPerWallet * MAX_AMOUNT_PAISE >= FUNDING_PAISE) {
    throw new Error(
      `seed: ${options.wallets} wallets are too few for ${indices} activity indices (they would run out of funds)`,
    );
  }
  const perWriter = Math.ceil(indices / SEED_WRITERS);
  const walletsPerWriter = Math.floor(options.wallets / SEED_WRITERS);
  const clients = await Promise.all(
    Array.from({ length: SEED_WRITERS }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: 'bench-seed' });
      await client.connect();
      await client.query(SEED_FUNCTIONS);
      return client;
    }),
  );
  try {
    options.log(`seed: opening and funding ${(walletsPerWriter * SEED_WRITERS + 1).toLocaleString()} wallets...`);
    await clients[0]?.query('select pg_temp.seed_wallets($1, $2)', [
      walletsPerWriter * SEED_WRITERS,
      FUNDING_PAISE.toString(),
    ]);
    options.log(
      `seed: ${(perWriter * SEED_WRITERS).toLocaleString()} activity appends (${options.hubTransfers.toLocaleString()} with the hub) by ${SEED_WRITERS} writers, ${CHUNK.toLocaleString()} per transaction...`,
    );
    await Promise.all(
      clients.map(async (client, writer) => {
        // Only writer 0 pays the hub: its partners are writer 0's wallets.
        const hub = writer === 0 ? options.hubTransfers : 0;
        for (let from = 0; from < perWriter; from += CHUNK) {
          // The chunk's new appends, and the answers to the previous chunk's deposits and requests.
          await client.query('select pg_temp.seed_chunk($1, $2, $3, $4, $5, $6, $7)', [
            from,
            Math.min(from + CHUNK, perWriter),
            perWriter,
            hub,
            walletsPerWriter,
            writer,
            SEED_WRITERS,
          ]);
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  await checkShapes(db);
  const { rows } = await sql<{ n: bigint }>`select count(*) as n from ledger.events`.execute(db);
  return {
    events: Number(rows[0]?.n ?? 0n),
    hubAccountId: HUB_ACCOUNT_ID,
    seconds: (performance.now() - started) / 1000,
  };
}

/** One of every event kind through the ledger's commands: what the SQL must reproduce. */
async function seedSpecimens(db: Kysely<unknown>): Promise<void> {
  const ledger = createLedger({ db: tablesView<LedgerTables>(db) });
  const ctx = { actorId: 'bench' };
  const [a, b] = ['specimen-a', 'specimen-b'] as const;
  for (const id of [a, b]) {
    await ledger.openWallet({ accountId: id, displayName: `Specimen ${id}` }, ctx);
    await ledger.completeCardDeposit(
      {
        depositId: `specimen-card-${id}`,
        walletId: id,
        amountPaise: rupees(1_000),
        reference: 'Card top-up',
        provider: 'stripe',
        paymentId: `pi_${id}`,
      },
      ctx,
    );
  }
  await ledger.requestDeposit(
    {
      depositId: 'specimen-upi',
      walletId: a,
      amountPaise: rupees(10),
      method: 'upi',
      reference: 'UPI top-up',
      details: { upiId: 'a@upi' },
    },
    ctx,
  );
  await ledger.settleDeposit({ depositId: 'specimen-upi' }, ctx);
  await ledger.requestDeposit(
    {
      depositId: 'specimen-bank',
      walletId: a,
      amountPaise: rupees(10),
      method: 'bank_transfer',
      reference: 'Bank top-up',
      details: { accountNumber: '000123', ifscCode: 'HDFC0000001', bankName: 'HDFC' },
    },
    ctx,
  );
  await ledger.failDeposit({ depositId: 'specimen-bank', reason: 'declined' }, ctx);
  await ledger.transfer(
    { transferId: 'specimen-transfer', fromAccountId: a, toAccountId: b, amountPaise: rupees(5), reference: 'rent' },
    ctx,
  );
  await ledger.requestMoney(
    { requestId: 'specimen-request-1', requesterId: a, payerId: b, amountPaise: rupees(2), reference: 'dinner' },
    ctx,
  );
  await ledger.acceptMoneyRequest({ requestId: 'specimen-request-1', payerId: b }, ctx);
  await ledger.requestMoney(
    { requestId: 'specimen-request-2', requesterId: a, payerId: b, amountPaise: rupees(2), reference: 'lunch' },
    ctx,
  );
  await ledger.rejectMoneyRequest({ requestId: 'specimen-request-2', payerId: b }, ctx);
}

/** Every seeded event's data has the keys and JSON types of a specimen of its type. */
async function checkShapes(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ type: string; shape: string; specimen: boolean }>`
    with shaped as (
      select type, stream_id like '%specimen%' as specimen,
             (select string_agg(key || ':' || jsonb_typeof(value) ||
                       case when jsonb_typeof(value) = 'object'
                            then '{' || (select string_agg(k, ',' order by k) from jsonb_object_keys(value) k) || '}' else '' end,
                       ',' order by key)
                from jsonb_each(data)) as shape
        from ledger.events)
    select distinct type, shape, specimen from shaped`.execute(db);
  const expected = new Set(rows.filter((row) => row.specimen).map((row) => `${row.type} ${row.shape}`));
  const strays = rows.filter((row) => !row.specimen && !expected.has(`${row.type} ${row.shape}`));
  if (strays.length > 0)
    throw new Error(
      `seed: events unlike the commands' own: ${strays.map((row) => `${row.type} {${row.shape}}`).join('; ')}`,
    );
}

/**
 * Session-local (pg_temp) functions: nothing is left in the schema. Ids are uuid-shaped like
 * real ones (md5 of a name); references carry words and names to search for.
 */
const SEED_FUNCTIONS = `
create function pg_temp.seed_wallet(n bigint) returns text language sql immutable
  as $$ select md5('seed-wallet-' || n)::uuid::text $$;
-- Writer w of k uses wallets w, w + k, w + 2k...: writers never wait on each other's locks.
create function pg_temp.seed_member(x bigint, p_writer int, p_writers int) returns text language sql immutable
  as $$ select pg_temp.seed_wallet(x * p_writers + p_writer) $$;
create function pg_temp.seed_id(kind text, n bigint) returns text language sql immutable
  as $$ select md5(kind || n)::uuid::text $$;
create function pg_temp.seed_reference(n bigint) returns text language sql immutable as $$
  select (array['Rent for March', 'Groceries', 'Dinner with Ravi', 'Asha birthday gift', 'Electricity bill',
                'School fees', 'Movie tickets', 'Taxi to airport', 'Chai and samosa', 'Gym membership'])[1 + n % 10] || ' #' || n
$$;
create function pg_temp.seed_amount(n bigint) returns bigint language sql immutable
  as $$ select 100 + (n * 37) % (${MAX_AMOUNT_PAISE} - 100) $$;

create function pg_temp.seed_wallets(p_wallets int, p_funding bigint) returns void language plpgsql as $fn$
declare
  v_id text;
begin
  for n in 0 .. p_wallets loop
    -- n = p_wallets is the hub.
    v_id := case when n = p_wallets then '${HUB_ACCOUNT_ID}' else pg_temp.seed_wallet(n) end;
    insert into ledger.accounts (id, kind, allow_negative, balance, seq) values (v_id, 'wallet', false, 0, 0);
    perform ledger.append('wallet-' || v_id, -1,
      jsonb_build_array(jsonb_build_object('type', 'WalletOpened', 'data', jsonb_build_object('accountId', v_id, 'displayName', 'Seed User ' || n))),
      jsonb_build_object('command', 'openWallet', 'actorId', v_id), null, '{}');
    perform ledger.append('deposit-' || pg_temp.seed_id('card', n), -1, jsonb_build_array(
      jsonb_build_object('type', 'DepositRequested', 'data', jsonb_build_object('depositId', pg_temp.seed_id('card', n), 'walletId', v_id,
        'amountPaise', p_funding::text, 'method', 'card', 'reference', 'Card top-up', 'details', jsonb_build_object('provider', 'stripe', 'paymentId', 'pi_' || n))),
      jsonb_build_object('type', 'DepositSettled', 'data', jsonb_build_object('depositId', pg_temp.seed_id('card', n), 'walletId', v_id,
        'amountPaise', p_funding::text, 'method', 'card', 'confirmedBy', 'provider'),
        'postings', jsonb_build_array(jsonb_build_object('account', 'funding:card', 'amount', (-p_funding)::text), jsonb_build_object('account', v_id, 'amount', p_funding::text)))),
      jsonb_build_object('command', 'completeCardDeposit', 'actorId', 'provider:card'), null, '{}');
  end loop;
end
$fn$;

-- What activity index n is: 'hub' (p_hub of p_total spread evenly), else by n % 20 a pending
-- deposit (0), a money request (3, 13) or a transfer.
create function pg_temp.seed_kind(n bigint, p_total bigint, p_hub bigint) returns text language sql immutable as $$
  select case when (n + 1) * p_hub / p_total > n * p_hub / p_total then 'hub'
              when n % 20 = 0 then 'deposit'
              when n % 20 in (3, 13) then 'request'
              else 'transfer' end
$$;

create function pg_temp.transfer(p_id text, p_from text, p_to text, p_amount bigint, p_reference text) returns void language sql as $$
  select ledger.append('transfer-' || p_id, -1, jsonb_build_array(jsonb_build_object('type', 'TransferCompleted',
      'data', jsonb_build_object('transferId', p_id, 'fromAccountId', p_from, 'toAccountId', p_to, 'amountPaise', p_amount::text, 'reference', p_reference),
      'postings', jsonb_build_array(jsonb_build_object('account', p_from, 'amount', (-p_amount)::text), jsonb_build_object('account', p_to, 'amount', p_amount::text)))),
    jsonb_build_object('command', 'transfer', 'actorId', p_from), null, '{}')
$$;

create function pg_temp.seed_chunk(p_from bigint, p_to bigint, p_total bigint, p_hub bigint, p_wallets int, p_writer int, p_writers int) returns void language plpgsql as $fn$
declare
  v_kind text;
  v_from text;
  v_to text;
  v_id text;
  v_amount bigint;
  v_k bigint;
  v_method text;
  v_g bigint;
begin
  for n in p_from .. p_to - 1 loop
    v_g := n::bigint * p_writers + p_writer;
    v_kind := pg_temp.seed_kind(n, p_total, p_hub);
    v_amount := pg_temp.seed_amount(v_g);
    v_from := pg_temp.seed_member((n::bigint * 7919) % p_wallets, p_writer, p_writers);
    v_to := pg_temp.seed_member(((n::bigint * 7919) % p_wallets + 1 + n % (p_wallets - 1)) % p_wallets, p_writer, p_writers);
    if v_kind = 'hub' then
      -- Pairs: the hub pays a wallet, the wallet pays the same back.
      v_k := (n + 1) * p_hub / p_total - 1;
      v_to := pg_temp.seed_member((v_k / 2) % p_wallets, p_writer, p_writers);
      v_amount := pg_temp.seed_amount(v_k / 2);
      if v_k % 2 = 0 then
        perform pg_temp.transfer(pg_temp.seed_id('t', v_g), '${HUB_ACCOUNT_ID}', v_to, v_amount, pg_temp.seed_reference(v_g));
      else
        perform pg_temp.transfer(pg_temp.seed_id('t', v_g), v_to, '${HUB_ACCOUNT_ID}', v_amount, pg_temp.seed_reference(v_g));
      end if;
    elsif v_kind = 'deposit' then
      v_id := pg_temp.seed_id('d', v_g);
      v_method := case when n % 40 = 0 then 'upi' else 'bank_transfer' end;
      perform ledger.append('deposit-' || v_id, -1, jsonb_build_array(jsonb_build_object('type', 'DepositRequested', 'data', jsonb_build_object(
          'depositId', v_id, 'walletId', v_from, 'amountPaise', v_amount::text, 'method', v_method, 'reference', pg_temp.seed_reference(v_g),
          'details', case when v_method = 'upi' then jsonb_build_object('upiId', 'user' || v_g || '@upi')
                          else jsonb_build_object('accountNumber', lpad(v_g::text, 12, '0'), 'ifscCode', 'HDFC0001234', 'bankName', 'HDFC') end))),
        jsonb_build_object('command', 'requestDeposit', 'actorId', v_from), null, '{}');
    elsif v_kind = 'request' then
      v_id := pg_temp.seed_id('r', v_g);
      perform ledger.append('request-' || v_id, -1, jsonb_build_array(jsonb_build_object('type', 'MoneyRequested', 'data', jsonb_build_object(
          'requestId', v_id, 'requesterId', v_to, 'payerId', v_from, 'amountPaise', v_amount::text, 'reference', pg_temp.seed_reference(v_g)))),
        jsonb_build_object('command', 'requestMoney', 'actorId', v_to), null, '{}');
    else
      perform pg_temp.transfer(pg_temp.seed_id('t', v_g), v_from, v_to, v_amount, pg_temp.seed_reference(v_g));
    end if;
  end loop;
  perform pg_temp.seed_answers(greatest(0, p_from - (p_to - p_from)), p_from, p_total, p_hub, p_wallets, p_writer, p_writers);
  if p_to = p_total then
    perform pg_temp.seed_answers(p_from, p_to, p_total, p_hub, p_wallets, p_writer, p_writers);
  end if;
end
$fn$;

-- Deposits settled (3 in 4) or failed; requests accepted (4 in 5) or rejected: each the
-- stream's second event, at expected version 0.
create function pg_temp.seed_answers(p_from bigint, p_to bigint, p_total bigint, p_hub bigint, p_wallets int, p_writer int, p_writers int) returns void language plpgsql as $fn$
declare
  v_kind text;
  v_from text;
  v_to text;
  v_id text;
  v_amount bigint;
  v_method text;
  v_g bigint;
begin
  for n in p_from .. p_to - 1 loop
    v_g := n::bigint * p_writers + p_writer;
    v_kind := pg_temp.seed_kind(n, p_total, p_hub);
    continue when v_kind not in ('deposit', 'request');
    v_amount := pg_temp.seed_amount(v_g);
    v_from := pg_temp.seed_member((n::bigint * 7919) % p_wallets, p_writer, p_writers);
    v_to := pg_temp.seed_member(((n::bigint * 7919) % p_wallets + 1 + n % (p_wallets - 1)) % p_wallets, p_writer, p_writers);
    if v_kind = 'deposit' then
      v_id := pg_temp.seed_id('d', v_g);
      v_method := case when n % 40 = 0 then 'upi' else 'bank_transfer' end;
      if (n / 20) % 4 = 3 then
        perform ledger.append('deposit-' || v_id, 0, jsonb_build_array(jsonb_build_object('type', 'DepositFailed',
            'data', jsonb_build_object('depositId', v_id, 'walletId', v_from, 'reason', 'Payment not received'))),
          jsonb_build_object('command', 'failDeposit', 'actorId', 'admin'), null, '{}');
      else
        perform ledger.append('deposit-' || v_id, 0, jsonb_build_array(jsonb_build_object('type', 'DepositSettled',
            'data', jsonb_build_object('depositId', v_id, 'walletId', v_from, 'amountPaise', v_amount::text, 'method', v_method, 'confirmedBy', 'admin'),
            'postings', jsonb_build_array(jsonb_build_object('account', 'funding:' || v_method, 'amount', (-v_amount)::text), jsonb_build_object('account', v_from, 'amount', v_amount::text)))),
          jsonb_build_object('command', 'settleDeposit', 'actorId', 'admin'), null, '{}');
      end if;
    else
      v_id := pg_temp.seed_id('r', v_g);
      if (n / 20) % 5 = 4 then
        perform ledger.append('request-' || v_id, 0, jsonb_build_array(jsonb_build_object('type', 'MoneyRequestRejected',
            'data', jsonb_build_object('requestId', v_id, 'requesterId', v_to, 'payerId', v_from))),
          jsonb_build_object('command', 'rejectMoneyRequest', 'actorId', v_from), null, '{}');
      else
        perform ledger.append('request-' || v_id, 0, jsonb_build_array(jsonb_build_object('type', 'MoneyRequestAccepted',
            'data', jsonb_build_object('requestId', v_id, 'requesterId', v_to, 'payerId', v_from, 'amountPaise', v_amount::text, 'reference', pg_temp.seed_reference(v_g)),
            'postings', jsonb_build_array(jsonb_build_object('account', v_from, 'amount', (-v_amount)::text), jsonb_build_object('account', v_to, 'amount', v_amount::text)))),
          jsonb_build_object('command', 'acceptMoneyRequest', 'actorId', v_from), null, '{}');
      end if;
    end if;
  end loop;
end
$fn$;
`;
