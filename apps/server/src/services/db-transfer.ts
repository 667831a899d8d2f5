// Moves a whole database, every table of the public schema, from one database to another (the
// embedded database to PostgreSQL): an export file of JSON lines, written and read through the
// Db interface, so it runs the same on both.
import type { Db } from '../db/index.ts';

const FORMAT = 'adloom-export';
const VERSION = 1;
/** Rows per line of the file, fewer when they are large (a feed's rows are one value). */
const PAGE_ROWS = 1000;
const PAGE_BYTES = 16 * 1024 * 1024;
/** Applied by the target's own migrations; compared, never copied. */
const MIGRATIONS_TABLE = 'schema_migrations';

/** A table and the columns an insert writes (generated columns left out). */
interface TableShape {
  name: string;
  columns: string[];
}

/** The export's first line. */
interface ExportHeader {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  source: Db['kind'];
  migrations: string[];
  tables: TableShape[];
}

/** One line of rows of one table. */
interface ExportRows {
  table: string;
  rows: Record<string, unknown>[];
}

/** The last line: how many rows each table has, so a cut-off file is noticed. */
interface ExportEnd {
  end: true;
  rowCounts: Record<string, number>;
}

/** Why an import did not start or did not finish; nothing was written. */
class ImportRefusedError extends Error {
  override name = 'ImportRefusedError';
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of the public schema, each after the tables it references. */
export async function listTables(db: Db): Promise<TableShape[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name
       from information_schema.columns c
       join information_schema.tables t
         on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
      order by c.table_name, c.ordinal_position`,
  );
  const references = await db.query<{ child: string; parent: string }>(
    `select distinct child.relname as child, parent.relname as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const byName = new Map<string, TableShape>();
  for (const row of columns) {
    const table = byName.get(row.table_name) ?? { name: row.table_name, columns: [] };
    table.columns.push(row.column_name);
    byName.set(row.table_name, table);
  }
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: Set<string>) => {
    const table = byName.get(name);
    if (!table || placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const reference of references) if (reference.child === name) place(reference.parent, path);
    placed.add(name);
    ordered.push(table);
  };
  for (const name of [...byName.keys()].sort()) place(name, new Set());
  return ordered;
}

async function readMigrations(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select name from ${MIGRATIONS_TABLE} order by name`,
  );
  return rows.map((row) => row.name);
}

/**
 * Writes every table of `db` as JSON lines to `write`: the header, pages of rows, and the row
 * counts. Runs in one transaction, so the pages agree with each other.
 */
export async function exportDatabase(
  db: Db,
  write: (line: string) => Promise<void>,
): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const tables = await listTables(tx);
    const header: ExportHeader = {
      format: FORMAT,
      version: VERSION,
      createdAt: new Date().toISOString(),
      source: db.kind,
      migrations: await readMigrations(tx),
      tables,
    };
    await write(JSON.stringify(header));
    const rowCounts: Record<string, number> = {};
    for (const table of tables) {
      let count = 0;
      const columns = table.columns.map(quote).join(', ');
      // Pages in physical order, each starting after the last row of the one before.
      let after = '(0,0)';
      for (;;) {
        const [page] = await tx.query<{ last: string | null; count: number; rows: string | null }>(
          `with page as (
             select ctid as row_at, pg_column_size(t.*) as size, ${columns}
               from ${quote(table.name)} t where ctid > $1::tid order by ctid limit $2
           ), sized as (
             select *, sum(size) over (order by row_at) - size as before from page
           ), kept as (select * from sized where before < $3)
           select max(row_at)::text as last, count(*)::int as count,
                  (select json_agg(r) from (select ${columns} from kept order by row_at) r)::text as rows
             from kept`,
          [after, PAGE_ROWS, PAGE_BYTES],
        );
        if (!page?.last || !page.rows) break;
        // json_agg puts line breaks between rows; a raw line break is never inside a JSON
        // string, so each one is whitespace, and the page stays one line.
        const rows = page.rows.replace(/[\r\n]+/g, ' ');
        await write(`{"table":${JSON.stringify(table.name)},"rows":${rows}}`);
        count += page.count;
        after = page.last;
      }
      rowCounts[table.name] = count;
    }
    const end: ExportEnd = { end: true, rowCounts };
    await write(JSON.stringify(end));
    return rowCounts;
  });
}

/** The tables of `tables` that hold a row (the migrations' own table left out). */
async function findNonEmptyTables(db: Db, tables: readonly TableShape[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    if (table.name === MIGRATIONS_TABLE) continue;
    const [row] = await db.query<{ has_rows: boolean }>(
      `select exists (select 1 from ${quote(table.name)}) as has_rows`,
    );
    if (row?.has_rows) found.push(table.name);
  }
  return found;
}

/**
 * Reads an export (its lines, in order) into `db`, whose migrations must be the export's. Refuses
 * a target holding any row unless `replace` is set (then every table is emptied first). All in
 * one transaction: a failure leaves the target as it was.
 */
export async function importDatabase(
  db: Db,
  lines: AsyncIterable<string>,
  options: { replace: boolean },
): Promise<Record<string, number>> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  let header: ExportHeader;
  try {
    header = JSON.parse(first.done ? '' : first.value) as ExportHeader;
  } catch {
    throw new ImportRefusedError('this is not an Adloom export (its first line is not JSON)');
  }
  if (header.format !== FORMAT || header.version !== VERSION)
    throw new ImportRefusedError(`this is not an Adloom export of version ${VERSION}`);
  const targetTables = await listTables(db);
  const targetMigrations = await readMigrations(db);
  if (targetMigrations.join('\n') !== header.migrations.join('\n'))
    throw new ImportRefusedError(
      `the export's migrations (${header.migrations.length}, last ${header.migrations.at(-1)}) differ from the target's (${targetMigrations.length}, last ${targetMigrations.at(-1)}): export and import with the same Adloom version`,
    );
  const targetByName = new Map(targetTables.map((table) => [table.name, table]));
  for (const table of header.tables) {
    const target = targetByName.get(table.name);
    if (!target || target.columns.join(',') !== table.columns.join(','))
      throw new ImportRefusedError(`the target's table ${table.name} differs from the export's`);
  }
  const nonEmpty = await findNonEmptyTables(db, targetTables);
  if (nonEmpty.length > 0 && !options.replace)
    throw new ImportRefusedError(
      `the target database already holds data (${nonEmpty.join(', ')}): import into an empty database, or pass --replace to delete what it holds`,
    );

  const shapes = new Map(header.tables.map((table) => [table.name, table]));
  return db.transaction(async (tx) => {
    if (options.replace) {
      const names = targetTables.filter((table) => table.name !== MIGRATIONS_TABLE);
      if (names.length > 0)
        await tx.exec(`truncate table ${names.map((table) => quote(table.name)).join(', ')}`);
    }
    const rowCounts: Record<string, number> = {};
    for (;;) {
      const next = await iterator.next();
      if (next.done) throw new ImportRefusedError('the export ends early (no closing line)');
      const line = JSON.parse(next.value) as ExportRows | ExportEnd;
      if ('end' in line) {
        for (const [name, count] of Object.entries(line.rowCounts))
          if (name !== MIGRATIONS_TABLE && (rowCounts[name] ?? 0) !== count)
            throw new ImportRefusedError(
              `the export holds ${rowCounts[name] ?? 0} rows of ${name}, its last line says ${count}`,
            );
        break;
      }
      const shape = shapes.get(line.table);
      if (!shape) throw new ImportRefusedError(`the export's rows of ${line.table} are not listed`);
      if (shape.name === MIGRATIONS_TABLE) continue;
      const columns = shape.columns.map(quote).join(', ');
      await tx.query(
        `insert into ${quote(shape.name)} (${columns})
         select ${columns} from json_populate_recordset(null::${quote(shape.name)}, $1::json)`,
        [JSON.stringify(line.rows)],
      );
      rowCounts[shape.name] = (rowCounts[shape.name] ?? 0) + line.rows.length;
    }
    await resetSequences(tx, targetTables);
    return rowCounts;
  });
}

/** Moves every serial column's sequence past the largest value imported. */
async function resetSequences(db: Db, tables: readonly TableShape[]): Promise<void> {
  for (const table of tables)
    for (const column of table.columns) {
      const [row] = await db.query<{ sequence: string | null }>(
        'select pg_get_serial_sequence($1, $2) as sequence',
        [quote(table.name), column],
      );
      if (!row?.sequence) continue;
      await db.query(
        `select setval($1::regclass, coalesce(max(${quote(column)}), 0) + 1, false) from ${quote(table.name)}`,
        [row.sequence],
      );
    }
}
