/**
 * Fills a database with valid random ledger activity, for trying replay at scale:
 * `node test/seed-events.ts <database url> [appends, default 100000]`.
 * Four concurrent writers over disjoint groups of 25 wallets, 50 appends per transaction.
 */
import { createDatabase, tablesView } from '../platform/database.ts';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { appendRandomActivity } from './random-ledger.ts';

const WRITERS = 4;
const WALLETS_PER_WRITER = 25;
const url = process.argv[2];
const appends = Number(process.argv[3] ?? 100_000);
if (!url || !Number.isInteger(appends) || appends < WRITERS)
  throw new Error('usage: seed-events.ts <database url> [appends]');
const prefix = `seed${Date.now().toString(36)}`;
const db = createDatabase<unknown>({ connectionString: url, maxConnections: 2 });
const ledger = createLedger({ db: tablesView<LedgerTables>(db) });
const groups: string[][] = [];
for (let g = 0; g < WRITERS; g++) {
  const wallets = Array.from({ length: WALLETS_PER_WRITER }, (_, i) => `${prefix}g${g}w${i}`);
  for (const wallet of wallets)
    await ledger.openWallet({ accountId: wallet, displayName: `Seed ${g}-${i(wallet)}` }, { actorId: wallet });
  groups.push(wallets);
}
await Promise.all(
  groups.map((wallets, g) =>
    appendRandomActivity(url, {
      prefix: `${prefix}g${g}x`,
      wallets,
      count: Math.floor(appends / WRITERS),
      seed: g + 5,
      maxPerTransaction: 50,
    }),
  ),
);
await db.destroy();
console.log(`Appended ${appends} events (plus ${WRITERS * WALLETS_PER_WRITER} wallet openings).`);

function i(wallet: string): string {
  return wallet.slice(wallet.lastIndexOf('w') + 1);
}
