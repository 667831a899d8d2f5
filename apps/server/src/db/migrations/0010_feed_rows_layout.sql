-- A feed's rows document is an array of rows, each an array of cells; rows_layout names the field
-- of each position, once per feed ('id', then feed column keys). Readers map cells by key, so a
-- column added to the feed's list never shifts stored data: rows written before it have no cell
-- for it and read as ''. The keys are stored once per feed, not once per row (a million rows of
-- objects would repeat them a million times).
--
-- Every rows document written before this migration is [id, root, mod, var1, var2, var3, url]:
-- that is the layout of the feeds already stored. Adding the column with that constant default
-- records it without rewriting a single rows document; the default is then dropped, so every
-- later write names its layout itself.
alter table feeds add column rows_layout text[] not null
  default array['id', 'root', 'mod', 'var1', 'var2', 'var3', 'url'];
alter table feeds alter column rows_layout drop default;
