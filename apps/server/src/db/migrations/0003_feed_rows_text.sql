-- Feed rows documents are JSON the server writes itself (JSON.stringify of checked rows): kept as
-- text, so a save no longer pays for PostgreSQL parsing and checking megabytes of JSON it already
-- knows are valid (on PGlite ~150 ms of a 100k-row save). Loads read the text as before.
alter table feeds alter column rows drop default;
alter table feeds alter column rows type text using rows::text;
alter table feeds alter column rows set default '[]';
alter table feeds alter column rows set storage external;
