-- Accounts and password-reset tokens. Emails are stored trimmed and lower-cased.
create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  password_hash text not null,
  role text not null default 'user',
  integrations jsonb not null default '[]'::jsonb,
  tutorial jsonb not null default '{"disabled": false, "tutorialSteps": [{"name": "Intro", "done": false}]}'::jsonb,
  -- Bumped when the password changes: tokens signed with an older version stop working.
  session_version int4 not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Only the sha256 of a reset token is stored; a token works once and for one hour.
create table password_reset_tokens (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user_id_idx on password_reset_tokens (user_id);
