-- An operator's view (issue 38): the Admin page reads feedback and waiting-list entries newest
-- first, a page at a time, continuing after the last entry shown (created_at, then the key).
-- These indexes let each page read only its own rows instead of sorting the whole table.
create index feedback_created_idx on feedback (created_at desc, id desc);
create index waiting_list_created_idx on waiting_list (created_at desc, email desc);
