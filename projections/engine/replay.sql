-- Replay's DDL (projections/engine/replay.ts), done as the owner on the runtime role's behalf:
-- the runtime has no DDL rights. Each function runs as its owner (SECURITY DEFINER) with a
-- pinned search_path, so a caller cannot put its own objects in front of the ones a function
-- means, and touches only tables listed in replay.projection_tables (the projections' own read
-- tables; projections/engine/replay-privileges.test.ts compares that list with the
-- projections' definitions), in rebuild schemas always named read_rebuild_<projection>.

-- The rebuild schema of a known projection (raises for any other name).
create or replace function replay.rebuild_schema(p_projection text) returns text
language plpgsql stable security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  if not exists (select 1 from replay.projection_tables where projection = p_projection) then
    raise exception 'replay: unknown projection %', p_projection using errcode = '22023';
  end if;
  return 'read_rebuild_' || p_projection;
end
$fn$;

create or replace function replay.check_table(p_projection text, p_table text) returns void
language plpgsql stable security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  if not exists (select 1 from replay.projection_tables where projection = p_projection and table_name = p_table) then
    raise exception 'replay: % is not a table of projection %', p_table, p_projection using errcode = '22023';
  end if;
end
$fn$;

-- Drops what a crashed replay left behind and creates an empty rebuild schema the runtime
-- can use but not create in.
create or replace function replay.reset_rebuild_schema(p_projection text) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_schema text := replay.rebuild_schema(p_projection);
begin
  execute format('drop schema if exists %I cascade', v_schema);
  execute format('create schema %I', v_schema);
  execute format('grant usage on schema %I to wallet_runtime', v_schema);
end
$fn$;

-- A rebuild table LIKE the live one (columns, defaults, checks, and the columns' statistics
-- targets, which LIKE does not copy: migration 0015), with its primary and unique keys now
-- (p_with_keys: the projectors' upserts need them) or later (build_rebuild_index).
-- The runtime may write its rows, as it does the live table's.
create or replace function replay.create_rebuild_table(p_projection text, p_table text, p_with_keys boolean) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_schema text := replay.rebuild_schema(p_projection);
  v_key record;
  v_column record;
begin
  perform replay.check_table(p_projection, p_table);
  execute format('create table %I.%I (like read.%I including all excluding indexes)', v_schema, p_table, p_table);
  for v_column in
    select a.attname, a.attstattarget from pg_attribute a
     where a.attrelid = format('read.%I', p_table)::regclass and a.attnum > 0 and not a.attisdropped
       and a.attstattarget >= 0
     order by a.attnum
  loop
    execute format('alter table %I.%I alter column %I set statistics %s', v_schema, p_table, v_column.attname, v_column.attstattarget);
  end loop;
  if p_with_keys then
    for v_key in
      select k.conname, pg_get_constraintdef(k.oid) as definition from pg_constraint k
       where k.conrelid = format('read.%I', p_table)::regclass and k.contype in ('p', 'u')
       order by k.conname
    loop
      execute format('alter table %I.%I add constraint %I %s', v_schema, p_table, v_key.conname, v_key.definition);
    end loop;
  end if;
  execute format('grant select, insert, update, delete on table %I.%I to wallet_runtime', v_schema, p_table);
end
$fn$;

-- Builds one of the live table's indexes on the rebuild table, under the live index's own name
-- (a migration can name an index whether or not a replay ran since), with its expressions'
-- statistics targets. A primary or unique key becomes the same constraint, unless
-- create_rebuild_table added it already. Each call is its own statement, so no snapshot is
-- held across all the builds (it would hold the xmin back).
create or replace function replay.build_rebuild_index(p_projection text, p_table text, p_index text) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_schema text := replay.rebuild_schema(p_projection);
  v_live regclass;
  v_live_index oid;
  v_original text;
  v_definition text;
  v_constraint text;
  v_column record;
begin
  perform replay.check_table(p_projection, p_table);
  v_live := format('read.%I', p_table)::regclass;
  select i.indexrelid, pg_get_indexdef(i.indexrelid), pg_get_constraintdef(k.oid) into v_live_index, v_original, v_constraint
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    left join pg_constraint k on k.conindid = i.indexrelid and k.conrelid = i.indrelid and k.contype in ('p', 'u')
   where i.indrelid = v_live and c.relname = p_index;
  if not found then
    raise exception 'replay: read.% has no index %', p_table, p_index using errcode = '22023';
  end if;
  if v_constraint is not null then
    if not exists (select 1 from pg_constraint where conrelid = format('%I.%I', v_schema, p_table)::regclass and conname = p_index) then
      execute format('alter table %I.%I add constraint %I %s', v_schema, p_table, p_index, v_constraint);
    end if;
    return;
  end if;
  v_definition := replace(v_original, ' ON ' || v_live::text || ' ', ' ON ' || quote_ident(v_schema) || '.' || quote_ident(p_table) || ' ');
  if v_definition = v_original then
    raise exception 'replay: cannot retarget index % (%)', p_index, v_original;
  end if;
  execute v_definition;
  for v_column in
    select a.attnum, a.attstattarget from pg_attribute a
     where a.attrelid = v_live_index and a.attstattarget >= 0
     order by a.attnum
  loop
    execute format('alter index %I.%I alter column %s set statistics %s', v_schema, p_index, v_column.attnum, v_column.attstattarget);
  end loop;
end
$fn$;

-- The swap, one table at a time in the caller's transaction (the caller holds the live
-- checkpoint row and calls these in the projection's table order): the live table goes, the
-- rebuilt one (with its grants) takes its place.
create or replace function replay.swap_in_table(p_projection text, p_table text) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_schema text := replay.rebuild_schema(p_projection);
begin
  perform replay.check_table(p_projection, p_table);
  execute format('drop table read.%I', p_table);
  execute format('alter table %I.%I set schema read', v_schema, p_table);
end
$fn$;

-- After the swap: the (now empty) rebuild schema. Not cascade: a table left in it is a bug.
create or replace function replay.drop_rebuild_schema(p_projection text) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  execute format('drop schema %I', replay.rebuild_schema(p_projection));
end
$fn$;

revoke execute on function replay.rebuild_schema(text) from public;
revoke execute on function replay.check_table(text, text) from public;
revoke execute on function replay.reset_rebuild_schema(text) from public;
revoke execute on function replay.create_rebuild_table(text, text, boolean) from public;
revoke execute on function replay.build_rebuild_index(text, text, text) from public;
revoke execute on function replay.swap_in_table(text, text) from public;
revoke execute on function replay.drop_rebuild_schema(text) from public;
