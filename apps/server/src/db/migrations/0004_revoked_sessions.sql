-- Session tokens ended by Log Out before their time. A row is kept until the token itself would
-- have expired (then the token's own expiry refuses it) and is pruned after that.
create table revoked_sessions (
  jti uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index revoked_sessions_user_id_idx on revoked_sessions (user_id);
create index revoked_sessions_expires_at_idx on revoked_sessions (expires_at);
