-- A user's link to their Google account (issue 15): the refresh token Google gave when they
-- allowed Adloom to use Google Sheets, encrypted (services/secrets.ts: AES-256-GCM, the user id
-- as associated data, 'v1.<iv>.<tag>.<ciphertext>'). Access tokens are never stored.
-- 'needs_consent': Google no longer honours the token (invalid_grant); the person links again.
create table google_links (
  user_id uuid primary key references users (id) on delete cascade,
  refresh_token text not null,
  status text not null default 'linked' check (status in ('linked', 'needs_consent')),
  scope text not null default '',
  linked_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The `state` of a consent page opened by a signed-in user, with its PKCE code verifier: checked
-- when Google sends the browser back, used once, and good for 10 minutes.
create table google_oauth_states (
  state text primary key,
  user_id uuid not null references users (id) on delete cascade,
  code_verifier text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index google_oauth_states_user_id_idx on google_oauth_states (user_id);
create index google_oauth_states_expires_at_idx on google_oauth_states (expires_at);
