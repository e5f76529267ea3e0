/**
 * Each projection's name says what it writes (issue 44 item 3). Projection "statements" wrote
 * read.statement_days while projection "accounts" wrote read.statements; now the first is
 * "statement_days" and the second's per-posting lines are read.statement_lines.
 *
 * - read.statements becomes read.statement_lines, its keys and index named after it (the
 *   runtime's grants go with the table).
 * - The projection's checkpoint row, its replay.projection_tables rows and its replay runs'
 *   audit.replay_runs rows take the new name, so the projector carries on where it was and the
 *   Operations page still shows the last replay. Queued replay jobs naming "statements" (pg-boss,
 *   when its schema is installed) are pointed at "statement_days".
 * - What a crashed replay left behind follows (a replay starts by dropping it anyway): the
 *   rebuild schema read_rebuild_statements takes the new name, a rebuild table
 *   read_rebuild_accounts.statements goes.
 * - The old rule functions go: the definition files (projections/statement-days/rules.sql)
 *   create projector.apply_statement_days* after the migrations, in the same run, and the
 *   runtime's grants are given to them as to every projector function.
 * The admin trail (audit.admin_actions) keeps the name an admin's replay had when it was made.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table read.statements rename to statement_lines;
alter table read.statement_lines rename constraint statements_pkey to statement_lines_pkey;
alter table read.statement_lines rename constraint statements_account_id_sequence_key to statement_lines_account_id_sequence_key;
alter index read.statements_by_time rename to statement_lines_by_time;

update read.checkpoints set projection = 'statement_days' where projection = 'statements';
update replay.projection_tables set table_name = 'statement_lines' where projection = 'accounts' and table_name = 'statements';
update replay.projection_tables set projection = 'statement_days' where projection = 'statements';
update audit.replay_runs set projection = 'statement_days' where projection = 'statements';

do $do$
begin
  if to_regclass('pgboss.job') is not null then
    update pgboss.job set data = jsonb_set(data, '{projection}', '"statement_days"')
     where name = 'projections.replay' and data->>'projection' = 'statements' and state in ('created', 'retry');
  end if;
  if to_regnamespace('read_rebuild_statements') is not null then
    alter schema read_rebuild_statements rename to read_rebuild_statement_days;
  end if;
  if to_regclass('read_rebuild_accounts.statements') is not null then
    drop table read_rebuild_accounts.statements;
  end if;
end
$do$;

drop function if exists projector.apply_statements(text, xid8, bigint, xid8, bigint);
drop function if exists projector.apply_statements__live(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_statements__rebuild(xid8, bigint, xid8, bigint);
`.execute(db);
}
