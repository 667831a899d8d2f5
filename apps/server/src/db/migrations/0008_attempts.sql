-- Rate-limit attempts (services/rate-limit.ts): one row per attempt counted under a scope (the
-- rule, such as 'login-ip') and a key (a sha256 digest of the address, account or user: never
-- the value itself). Every server process counts here, so a limit holds for all of them together.
-- at_ms is the attempt's time in milliseconds since 1970, from the server that counted it.
create table attempts (
  id bigserial primary key,
  scope text not null,
  key text not null,
  at_ms bigint not null
);
create index attempts_scope_key_at_idx on attempts (scope, key, at_ms);
create index attempts_at_idx on attempts (at_ms);
