-- Address verification (issue 37): the tools an address grants (the AI helper, the XML tools)
-- wait until the address is verified through a mailed link. email_verified_at is null until
-- then: accounts made before this migration are unverified until they verify, and a changed
-- address is unverified again.
alter table users add column email_verified_at timestamptz;

-- Only the sha256 of a verification token is stored, with the address it was mailed to: the
-- token verifies that address of that account only, once, until it expires. An account keeps
-- its newest token only.
create table email_verification_tokens (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  email text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_verification_tokens_user_id_idx on email_verification_tokens (user_id);
