-- Google's geo targets (issue 16): the release loaded last, shared by every user. A load copies
-- the file into a fresh table like geo_targets, builds its indexes there and swaps it in within
-- one transaction (db/geo.ts), so a search sees the old release or the new one, never none.
-- The trigram index of name searches needs pg_trgm: without it the searches still work, slower.
do $$
begin
  create extension if not exists pg_trgm;
exception when others then
  raise notice 'pg_trgm is not available: geo name searches run without their trigram index';
end
$$;

create table geo_targets (
  criteria_id bigint primary key,
  name text not null,
  canonical_name text not null,
  parent_id bigint,
  country_code text not null,
  target_type text not null,
  status text not null,
  -- canonical_name lowered by JavaScript's toLowerCase (the loader computes it), so that the name
  -- filter agrees with the contract's matchesGeoFilters whatever the database's locale lowers.
  search_name text not null
);

-- The one release loaded (no row: nothing loaded).
create table geo_release (
  id boolean primary key default true check (id),
  release_date date not null,
  source text not null,
  row_count integer not null,
  loaded_at timestamptz not null default now()
);
