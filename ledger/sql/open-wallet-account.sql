-- ledger.open_wallet_account: inserts a wallet's head (balance 0), the one ledger write that is
-- not an append (ledger/wallet-accounts/open-wallet.ts). Runs as its owner: the runtime role
-- may read the ledger's tables but not write them. Returns false when the account already
-- exists (the caller rejects with account_exists).
create or replace function ledger.open_wallet_account(p_account_id text) returns boolean
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  insert into ledger.accounts (id, kind, allow_negative, balance, seq)
    values (p_account_id, 'wallet', false, 0, 0)
    on conflict (id) do nothing;
  -- false: the account already exists (the caller rejects with account_exists).
  return found;
end
$fn$;
revoke execute on function ledger.open_wallet_account(text) from public;
