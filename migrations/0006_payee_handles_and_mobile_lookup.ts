/**
 * Paying a mobile number or a handle (issue 43): each user may choose one handle
 * (`asha@wallet`, unique, set once), and a payee is found by the last ten digits of their
 * registered contact number. Both lookups read an index: without one, every lookup would read
 * every user. The handle's rule is the contract's (contracts/payees.ts); the check here keeps
 * a row written by any other path to the same shape.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table identity.users add column handle text;
alter table identity.users add constraint users_handle_check
  check (handle ~ '^[a-z0-9][a-z0-9._]{2,19}@wallet$');
create unique index users_handle_key on identity.users (handle) where handle is not null;
create index users_mobile_key on identity.users ((right(regexp_replace(contact_no, '[^0-9]', '', 'g'), 10)))
  where contact_no is not null;
`.execute(db);
}
