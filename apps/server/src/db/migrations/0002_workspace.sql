-- Workspace: clients with their feeds and five kinds of template, the user's own lists and data
-- tables, the waiting list and feedback. Every table holding a user's data is scoped by user_id
-- and goes with the user; a client's feeds and templates go with the client.
--
-- A feed's rows are one JSON document, an array of [id, root, mod, var1, var2, var3, url]
-- arrays (100k rows save and load in one statement each; arrays are a third smaller than objects).
-- The type is json, not jsonb: the document is only ever written and read whole, and on PGlite
-- json takes ~300 ms to write and ~30 ms to read for 100k rows where jsonb takes ~450 and ~130.
-- Every stored set carries an integer revision: a client's feed set and each template kind on
-- the client row, the user's list set in list_sets. A save naming an older revision is refused.

create table clients (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  name text not null,
  feeds_revision integer not null default 0,
  campaign_templates_revision integer not null default 0,
  ad_templates_revision integer not null default 0,
  rsa_templates_revision integer not null default 0,
  performance_max_templates_revision integer not null default 0,
  extension_templates_revision integer not null default 0,
  created_at timestamptz not null default now(),
  constraint clients_user_name_unique unique (user_id, name)
);

create table list_sets (
  user_id uuid primary key references users(id) on delete cascade,
  revision integer not null default 0
);

-- A client's feed (client_id set) or one of the user's lists and data tables (client_id null).
create table feeds (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  client_id uuid references clients(id) on delete cascade,
  position integer not null,
  name text not null,
  data_type text not null check (data_type in ('table', 'list')),
  sheet_url text not null default '',
  sheet_name text not null default '',
  rows json not null default '[]'::json,
  row_count integer not null default 0,
  -- sha256 of the rows document: a save of unchanged rows does not rewrite them.
  rows_hash text not null default '',
  -- A new random value on every write of the rows: lets a server cache presented rows safely.
  rows_version uuid not null default gen_random_uuid(),
  updated_at timestamptz not null default now()
);
-- Rows documents are stored uncompressed: compressing megabytes on every save costs more time
-- than the disk it saves is worth.
alter table feeds alter column rows set storage external;
create index feeds_client_idx on feeds (client_id, position);
create index feeds_user_idx on feeds (user_id, position) where client_id is null;

create table templates (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  client_id uuid not null references clients(id) on delete cascade,
  kind text not null check (kind in ('campaignTemplates', 'adTemplates', 'rsaTemplates', 'performanceMaxTemplates', 'extensionTemplates')),
  position integer not null,
  name text not null,
  body jsonb not null,
  updated_at timestamptz not null default now()
);
create index templates_client_kind_idx on templates (client_id, kind, position);
create index templates_user_idx on templates (user_id);

create table waiting_list (
  email text primary key,
  created_at timestamptz not null default now()
);

create table feedback (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  email text not null,
  type text not null check (type in ('Issue', 'Idea', 'Other')),
  message text not null,
  created_at timestamptz not null default now()
);
create index feedback_user_idx on feedback (user_id);
