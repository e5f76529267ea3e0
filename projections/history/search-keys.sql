-- History search keys (projections/history/queries.ts): a reference's trigrams, each keyed by
-- its account (a 64-bit hash of both), in one GIN index, history_search_keys. A search's
-- trigrams are looked up among its user's rows only: a phrase the user never used costs a few
-- index pages, whoever else used it. A hash collision only adds candidates that the query's own
-- ILIKE and account filter drop. A reference's keys leave out the padded trigrams that show a
-- space (the rest are harmless extras).
--
-- The index history_search_keys is built on read.search_keys, so the baseline migration applies
-- this file before creating it. Changing what search_keys returns changes what the index should
-- hold: such a change comes with a versioned migration that rebuilds the index.
-- A loop in PL/pgSQL, not one SQL statement: every history row's insert evaluates this (it is
-- the index's expression), and a SQL function whose body is a subquery cannot be inlined, so
-- each call paid the SQL function executor's start-up - 6.5 us a row against 4.0 for the same
-- keys in this loop, and ~9% of the history rule's CPU (bench/RESULTS.md, "2026-11-30 07:40").
-- PL/pgSQL resolves names when it runs, with the caller's search_path, so show_trgm is written
-- with pg_trgm's schema, read here when the function is created (the baseline migration
-- created the extension in the migrating session's search_path); the rest is pg_catalog's,
-- which is searched first.
do $define$
begin
  execute format($body$
create or replace function read.search_keys(p_account text, p_text text) returns int8[]
language plpgsql immutable strict parallel safe as $fn$
declare
  v_account int8 := hashtext(p_account)::int8 << 32;
  v_keys int8[] := '{}';
  v_trigram text;
begin
  foreach v_trigram in array %I.show_trgm(p_text) loop
    if strpos(v_trigram, ' ') = 0 then
      v_keys := array_append(v_keys, v_account | (hashtext(v_trigram)::int8 & 4294967295));
    end if;
  end loop;
  return v_keys;
end
$fn$
$body$, (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'));
end
$define$;

-- A search text's keys: only the trigrams inside its words, which every reference containing
-- the text has too. pg_trgm pads each word (two spaces before, one after); a padded trigram of
-- letters outside ASCII is shown hashed, with no space to see, so the padded ones are taken
-- away as what each one- or two-character piece of the text yields (pieces only make padded
-- trigrams). Taking away one too many only admits more candidates, never loses a match.
create or replace function read.search_text_keys(p_account text, p_text text) returns int8[]
language sql immutable strict parallel safe
return array(
  select (hashtext(p_account)::int8 << 32) | (hashtext(t)::int8 & 4294967295)
    from (select unnest(show_trgm(p_text))
          except
          select unnest(show_trgm(substr(p_text, i, 2)))
            from generate_series(1, char_length(p_text)) as i) as inner_trigrams(t));

-- An amount's key among its account's keys. The '#' keeps it apart from any trigram's text
-- (a collision of hashes only adds candidates that the search's own amount test drops).
create or replace function read.amount_search_key(p_account text, p_amount_paise bigint) returns int8[]
language sql immutable parallel safe
return case when p_amount_paise is null then '{}'::int8[]
            else array[(hashtext(p_account)::int8 << 32) | (hashtext('#' || p_amount_paise::text)::int8 & 4294967295)] end;

-- A history row's keys (migration 0004): what the row shows - the reference and the
-- counterparty's name (their trigrams, as above) and the amount (one key of its own, so an
-- amount typed as "4,000.50" finds its rows among a user's thousands without reading them all).
create or replace function read.history_search_keys(p_account text, p_reference text, p_name text, p_amount_paise bigint)
returns int8[]
language sql immutable parallel safe
return read.search_keys(p_account, coalesce(p_reference, '') || ' ' || coalesce(p_name, ''))
       || read.amount_search_key(p_account, p_amount_paise);

-- How many rows an account has before its rows are keyed (migration 0017). The search index
-- holds only the rows of accounts past this many (`where keyed`): a search reads a user's newest
-- SEARCH_HEAD_ROWS (2,000) rows before it looks any key up (projections/history/queries.ts), so
-- the keys of a shorter history are never read, and writing them was ~40% of the history rule's
-- CPU (bench/RESULTS.md, "2026-11-30 04:13"). The rule keys an account's new rows once its
-- count passes this, and its earlier rows in the same statement. Changing the number changes
-- which rows the index should hold: it comes with a migration that sets `keyed` again.
create or replace function read.history_keys_after_rows() returns integer
language sql immutable parallel safe
return 2000;
