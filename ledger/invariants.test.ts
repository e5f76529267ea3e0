/**
 * What the database itself guarantees, whatever code runs against it: postings of an event
 * sum to zero, and the log is append-only. As the owner, on purpose: the runtime role may not
 * even try these statements (platform/runtime-role.test.ts), the triggers hold for everyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from './index.ts';

let testDb: TestDatabase<LedgerTables>;
let ledger: Ledger;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>({ as: 'owner' });
  ledger = createLedger({ db: testDb.db });
  for (const id of ['alice', 'bob']) await ledger.openWallet({ accountId: id, displayName: id }, { actorId: id });
  await ledger.requestDeposit(
    {
      depositId: 'd1',
      walletId: 'alice',
      amountPaise: rupees(100),
      method: 'upi',
      reference: 'seed',
      details: { upiId: 'a@bank' },
    },
    { actorId: 'alice' },
  );
  await ledger.settleDeposit({ depositId: 'd1' }, { actorId: 'admin' });
});

afterAll(async () => {
  await testDb.drop();
});

const appendRawEvent = sql`insert into ledger.events (stream_id, stream_version, type, data) values ('raw-1', 0, 'TransferCompleted', '{}') returning position`;

describe('the zero-sum rule', () => {
  it('rejects an event whose postings do not sum to zero, inserted by raw SQL', async () => {
    await expect(
      testDb.db.transaction().execute(async (trx) => {
        const { rows } = await appendRawEvent.execute(trx);
        const position = (rows[0] as { position: bigint }).position;
        await sql`insert into ledger.postings (position, account_id, amount) values (${position}, 'funding:upi', -500), (${position}, 'bob', 400)`.execute(
          trx,
        );
      }),
    ).rejects.toThrow(/sum to -100 paise, not zero/);
    const { rows } = await sql`select count(*)::int as n from ledger.events where stream_id = 'raw-1'`.execute(
      testDb.db,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('accepts balanced raw postings (the rule is the sum, not the path)', async () => {
    await testDb.db.transaction().execute(async (trx) => {
      const { rows } =
        await sql`insert into ledger.events (stream_id, stream_version, type, data) values ('raw-2', 0, 'TransferCompleted', '{}') returning position`.execute(
          trx,
        );
      const position = (rows[0] as { position: bigint }).position;
      await sql`insert into ledger.postings (position, account_id, amount) values (${position}, 'funding:upi', -500), (${position}, 'funding:card', 500)`.execute(
        trx,
      );
    });
  });
});

describe('what postings refer to (checked once per statement, in place of foreign keys)', () => {
  it('rejects a posting naming an event that does not exist', async () => {
    await expect(
      sql`insert into ledger.postings (position, account_id, amount) values (987654321, 'funding:upi', -5), (987654321, 'funding:card', 5)`.execute(
        testDb.db,
      ),
    ).rejects.toThrow(/event 987654321 that does not exist/);
  });

  it('rejects a posting naming an account that does not exist', async () => {
    await expect(
      testDb.db.transaction().execute(async (trx) => {
        const { rows } =
          await sql`insert into ledger.events (stream_id, stream_version, type, data) values ('raw-3', 0, 'TransferCompleted', '{}') returning position`.execute(
            trx,
          );
        const position = (rows[0] as { position: bigint }).position;
        await sql`insert into ledger.postings (position, account_id, amount) values (${position}, 'funding:upi', -5), (${position}, 'nobody', 5)`.execute(
          trx,
        );
      }),
    ).rejects.toThrow(/account nobody that does not exist/);
  });

  it.each([
    ['DELETE accounts', sql`delete from ledger.accounts where id = 'bob'`],
    ['TRUNCATE accounts', sql`truncate ledger.accounts cascade`],
  ])('%s is rejected: postings refer to accounts for ever', async (_name, statement) => {
    await expect(statement.execute(testDb.db)).rejects.toThrow(/never removed/);
  });
});

describe('append-only history', () => {
  it.each([
    ['UPDATE events', sql`update ledger.events set type = 'Edited'`],
    ['DELETE events', sql`delete from ledger.events`],
    ['TRUNCATE events', sql`truncate ledger.events cascade`],
    ['UPDATE postings', sql`update ledger.postings set amount = amount * 2`],
    ['DELETE postings', sql`delete from ledger.postings`],
    ['TRUNCATE postings', sql`truncate ledger.postings`],
  ])('%s is rejected', async (_name, statement) => {
    await expect(statement.execute(testDb.db)).rejects.toThrow(/append-only/);
  });

  it('leaves the log as it was', async () => {
    const { rows } = await sql`select count(*)::int as n from ledger.postings`.execute(testDb.db);
    expect(rows[0]).toEqual({ n: 4 });
  });
});

describe('wallet heads', () => {
  it('cannot be set negative, even by raw SQL', async () => {
    await expect(sql`update ledger.accounts set balance = -1 where id = 'bob'`.execute(testDb.db)).rejects.toThrow(
      /wallet_never_negative/,
    );
  });

  it('take only ids of one to eighty letters, digits, "_", ":" or "-"', async () => {
    const open = (id: string) => sql`select ledger.open_wallet_account(${id})`.execute(testDb.db);
    for (const id of ['', 'has space', 'semi;colon', 'é', 'x'.repeat(81), 'line\nbreak']) {
      await expect(open(id), JSON.stringify(id)).rejects.toThrow(/accounts_id_check/);
    }
    for (const id of ['a', 'A-z_0:9', 'y'.repeat(80)]) await open(id);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ledger.accounts where id in ('a', 'A-z_0:9', ${'y'.repeat(80)})`.execute(
      testDb.db,
    );
    expect(rows[0]!.n).toBe(3);
  });
});
