-- A feed or list linked to a Google Sheet keeps, in its rows column, the last rows read from or
-- written to the sheet (the kept copy), so its rows are never lost while the sheet cannot be
-- read. These columns say when that copy was made, how ('read': downloaded, 'written': uploaded,
-- 'kept': the rows the feed held when it was linked) and how many rows moved. All null on a feed
-- never synced with a sheet.
alter table feeds add column sheet_synced_at timestamptz;
alter table feeds add column sheet_sync_direction text
  check (sheet_sync_direction in ('read', 'written', 'kept'));
alter table feeds add column sheet_rows_moved integer;
