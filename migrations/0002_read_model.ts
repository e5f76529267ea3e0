/**
 * The read model (CQRS read side): tables written only by the projectors in projections/,
 * read by the API. Everything here can be dropped and rebuilt from the ledger's events
 * (`npm run ledger -- replay`). See projections/ARCHITECTURE-read-side.md.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
-- Search by reference text or transaction id: trigram indexes (pg_trgm ships with Postgres
-- 13+ and is a trusted extension, on the embedded 18 and on 15 alike).
create extension if not exists pg_trgm;

create schema read;

-- One row per projection: how far it has read, as the (tx_id, position) pair of the last
-- event applied. The projector locks this row for each batch (one active projector per
-- projection) and advances it in the batch's transaction (exactly-once effect).
create table read.checkpoints (
  projection text primary key,
  tx_id xid8 not null default '0'::xid8,
  position bigint not null default 0,
  events_applied bigint not null default 0,
  updated_at timestamptz not null default now(),
  last_error text,
  last_error_at timestamptz
);
insert into read.checkpoints (projection) values ('accounts'), ('history'), ('money_requests');

-- Projection "accounts": display names, balances (funding accounts' balances exist only
-- here) and per-account statements.
create table read.directory (
  account_id text primary key,
  display_name text not null,
  kind text not null check (kind in ('wallet', 'funding')),
  opened_at timestamptz not null
);

create table read.balances (
  account_id text primary key,
  balance_paise bigint not null,
  postings_count bigint not null,
  last_position bigint,
  updated_at timestamptz not null
);

create table read.statements (
  account_id text not null,
  position bigint not null,
  tx_id xid8 not null,
  -- The order of the running balance: the ledger's account_seq for wallets (the order of
  -- their row locks), the order of projection for funding accounts.
  sequence bigint not null,
  event_type text not null,
  stream_id text not null,
  transaction_id text not null,
  counterparty_id text,
  counterparty_name text,
  amount_paise bigint not null,
  balance_after_paise bigint not null,
  recorded_at timestamptz not null,
  primary key (account_id, position),
  unique (account_id, sequence)
);
create index statements_by_time on read.statements (account_id, recorded_at);

-- Projection "history": one row per participant of each money movement.
create table read.history (
  account_id text not null,
  stream_id text not null,
  transaction_id text not null,
  type text not null check (type in ('deposit', 'debit', 'credit')),
  sender_id text not null,
  receiver_id text not null,
  counterparty_id text not null,
  counterparty_name text not null,
  amount_paise bigint not null check (amount_paise > 0),
  reference text not null,
  status text not null check (status in ('success', 'pending', 'failed')),
  method text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  tx_id xid8 not null,
  position bigint not null,
  primary key (account_id, stream_id)
);
create index history_newest_first on read.history (account_id, created_at desc, position desc);
create index history_by_type on read.history (account_id, type, created_at desc, position desc);
create index history_reference_search on read.history using gin (reference gin_trgm_ops);
create index history_transaction_search on read.history using gin (transaction_id gin_trgm_ops);

-- Projection "money_requests": requests sent and received.
create table read.money_requests (
  request_id text primary key,
  requester_id text not null,
  requester_name text not null,
  payer_id text not null,
  payer_name text not null,
  amount_paise bigint not null,
  reference text not null,
  status text not null check (status in ('pending', 'accepted', 'rejected')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  position bigint not null
);
create index money_requests_by_requester on read.money_requests (requester_id, created_at desc);
create index money_requests_by_payer on read.money_requests (payer_id, created_at desc);
`.execute(db);
}
