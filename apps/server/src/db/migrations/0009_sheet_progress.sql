-- Progress of running sheet calls (services/sheet-progress.ts), so that GET
-- /api/google/progress/:id answers whichever server the poll reaches: the server running the
-- call writes its latest count here. A row finished over a minute ago, or silent for ten
-- minutes (its server stopped), is no longer answered and is deleted by the next call's start.
create table sheet_progress (
  user_id uuid not null references users (id) on delete cascade,
  progress_id text not null,
  phase text not null check (phase in ('reading', 'writing', 'done')),
  done integer not null,
  total integer not null,
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (user_id, progress_id)
);
create index sheet_progress_updated_at_idx on sheet_progress (updated_at);
