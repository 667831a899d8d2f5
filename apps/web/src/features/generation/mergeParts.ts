/**
 * Puts the packed tables of a pool's parts together (on the page, see enginePool.ts): each part
 * ran the job over its campaigns' rows, and each of its tables says, per row, the feed line that
 * orders it and where its sections end (`TablePart`). The merged table holds, section by
 * section, the parts' rows by those lines, which is the order one run over every row makes
 * (packages/engine/src/campaignParts.ts says why). Nothing is unpacked: the parts' values are
 * concatenated and each row's code is shifted to its part's values, so merging 100k rows is a
 * few typed-array passes, each in a task of its own (the page stays responsive).
 */
import type { PackedColumn, PackedTable, PackedValues } from './packTable.ts';
import { yieldToPage } from '../../state/yieldToPage.ts';

/** What a part's job tells the page of one of its tables, to merge it with the other parts'. */
export interface TablePart {
  /**
   * Per row, the feed line (from 1) it is ordered by; 0: none, it stays after the row before it.
   * Absent: the table's `lines`.
   */
  keys?: Uint32Array;
  /**
   * Where each section ends (the last: the row count). The first section holds what the
   * template makes whatever the rows (its own issues): it is taken from the first part only.
   */
  ends: number[];
}

/** A part's output: its tables' `TablePart`s by the output's field names. */
export interface PartOutput {
  tableParts?: Record<string, TablePart>;
}

/** Per row of a merged table, the part and the part's row it comes from. */
interface Order {
  parts: Uint8Array;
  rows: Uint32Array;
}

function orderOf(tables: readonly PackedTable[], parts: readonly TablePart[]): Order {
  const sections = (parts[0] as TablePart).ends.length;
  const keysOf = parts.map(
    (p, i) => p.keys ?? (tables[i] as PackedTable).lines ?? new Uint32Array(0),
  );
  let total = 0;
  parts.forEach(
    (p, i) => (total += (p.ends.at(-1) as number) - (i > 0 ? (p.ends[0] as number) : 0)),
  );
  const fromPart = new Uint8Array(total);
  const fromRow = new Uint32Array(total);
  let n = 0;
  const at = new Int32Array(parts.length);
  const end = new Int32Array(parts.length);
  const last = new Uint32Array(parts.length);
  for (let s = 0; s < sections; s += 1) {
    const count = s === 0 ? 1 : parts.length;
    for (let i = 0; i < count; i += 1) {
      const ends = (parts[i] as TablePart).ends;
      at[i] = s === 0 ? 0 : (ends[s - 1] as number);
      end[i] = ends[s] as number;
      last[i] = 0;
    }
    for (;;) {
      let best = -1;
      let bestKey = 0;
      for (let i = 0; i < count; i += 1) {
        const row = at[i] as number;
        if (row >= (end[i] as number)) continue;
        let key = (keysOf[i] as Uint32Array)[row] ?? 0;
        if (key === 0) key = last[i] as number;
        if (best < 0 || key < bestKey) {
          best = i;
          bestKey = key;
        }
      }
      if (best < 0) break;
      // The best part's rows that come before every other part's next row go at once.
      const keys = keysOf[best] as Uint32Array;
      let next = Infinity;
      for (let i = 0; i < count; i += 1) {
        if (i === best || (at[i] as number) >= (end[i] as number)) continue;
        const row = at[i] as number;
        let key = ((keysOf[i] as Uint32Array)[row] ?? 0) || (last[i] as number);
        if (i > best) key += 1; // a tie goes to the earlier part
        if (key < next) next = key;
      }
      let row = at[best] as number;
      const stop = end[best] as number;
      let key = bestKey;
      do {
        fromPart[n] = best;
        fromRow[n] = row;
        n += 1;
        row += 1;
        last[best] = key;
        if (row >= stop) break;
        key = (keys[row] ?? 0) || key;
      } while (key < next);
      at[best] = row;
    }
  }
  return { parts: fromPart, rows: fromRow };
}

/** The merged table's headers and its field columns (see `PartsMerger.merge`). */
function headersOf(tables: readonly PackedTable[]): { headers: string[]; fields: PackedColumn[] } {
  const first = tables[0] as PackedTable;
  const own = (t: PackedTable): string =>
    t.headers.filter((_, i) => t.columns[i]?.field === undefined).join('\u001f');
  const fields = new Map<number, { header: string; column: PackedColumn }>();
  for (const t of tables) {
    if (own(t) !== own(first)) throw new Error('The parts made tables of other columns');
    t.columns.forEach((c, i) => {
      if (c.field !== undefined && !fields.has(c.field))
        fields.set(c.field, { header: t.headers[i] as string, column: c });
    });
  }
  const byField = [...fields.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f);
  return {
    headers: [
      ...first.headers.filter((_, i) => first.columns[i]?.field === undefined),
      ...byField.map((f) => f.header),
    ],
    fields: byField.map((f) => f.column),
  };
}

/** Values of several parts one after another, and where each part's codes start. */
interface MergedValues {
  values: PackedValues;
  bases: number[];
}

function concatValues(columns: readonly PackedValues[]): MergedValues {
  const texts: string[] = [];
  const pieceStarts: number[] = [];
  const bases: number[] = [];
  let valueCount = 0;
  for (const c of columns) valueCount += c.offsets.length - 1;
  const offsets = new Uint32Array(valueCount + 1);
  let chars = 0;
  let values = 0;
  for (const c of columns) {
    bases.push(values);
    c.texts.forEach((text, p) => {
      texts.push(text);
      pieceStarts.push((c.pieceStarts[p] as number) + chars);
    });
    const n = c.offsets.length - 1;
    for (let k = 0; k < n; k += 1) offsets[values + k] = (c.offsets[k] as number) + chars;
    values += n;
    chars += c.offsets[n] as number;
  }
  offsets[valueCount] = chars;
  return { values: { texts, pieceStarts, offsets }, bases };
}

/** How many entries a column's codes index: its rows, or its sources when `bySource`. */
function entriesOf(column: PackedColumn): number {
  return column.codes ? column.codes.length : column.offsets.length - 1;
}

/**
 * Merges the tables of one output: `shared` keeps the values columns of several tables share
 * (the ad group names of the keyword tables), so they are concatenated once and stay shared.
 */
export class PartsMerger {
  private readonly shared = new Map<Uint32Array, MergedValues>();

  /**
   * The parts' tables as one. Columns that read a field of the rows' records (`field`) are those
   * of every part, in field order (the RSAs leave out the headline columns no ad of the part
   * used); the others must be the same in every part, else this throws.
   */
  async merge(
    tables: readonly PackedTable[],
    parts: readonly TablePart[],
    pause: () => Promise<void>,
  ): Promise<PackedTable> {
    const first = tables[0] as PackedTable;
    if (tables.length === 1) return first;
    const { headers, fields } = headersOf(tables);
    const order = orderOf(tables, parts);
    await pause();
    const rowCount = order.rows.length;
    // Sources (rows sharing the cells of their `bySource` columns): numbered part after part.
    const sourceBases: number[] = [];
    let sourceCount = 0;
    for (const t of tables) {
      sourceBases.push(sourceCount);
      const bySource = t.columns.find((c) => c.bySource && c.field === undefined) ?? t.records;
      sourceCount += bySource ? entriesOf(bySource) : 0;
    }
    const columns: PackedColumn[] = [];
    for (const [i, c] of first.columns.entries()) {
      if (c.field !== undefined) continue;
      const partColumns = tables.map((t) => t.columns[i] as PackedColumn);
      columns.push(
        c.bySource
          ? this.bySource(partColumns, sourceBases, sourceCount)
          : this.byRow(partColumns, order),
      );
      await pause();
    }
    columns.push(...fields);
    const merged: PackedTable = { headers, rowCount, columns };
    if (first.records)
      merged.records = this.bySource(
        tables.map((t) => t.records as PackedColumn),
        sourceBases,
        sourceCount,
      );
    if (first.sources) {
      const sources = new Uint32Array(rowCount);
      for (let r = 0; r < rowCount; r += 1) {
        const p = order.parts[r] as number;
        sources[r] =
          (sourceBases[p] as number) +
          ((tables[p]?.sources?.[order.rows[r] as number] ?? 0) as number);
      }
      merged.sources = sources;
    }
    if (tables.some((t) => t.lines)) {
      const lines = new Uint32Array(rowCount);
      for (let r = 0; r < rowCount; r += 1)
        lines[r] = tables[order.parts[r] as number]?.lines?.[order.rows[r] as number] ?? 0;
      merged.lines = lines;
    }
    return merged;
  }

  private valuesOf(columns: readonly PackedColumn[]): MergedValues {
    const key = (columns[0] as PackedColumn).offsets;
    const kept = this.shared.get(key);
    if (kept) return kept;
    const merged = concatValues(columns);
    this.shared.set(key, merged);
    return merged;
  }

  private byRow(columns: readonly PackedColumn[], order: Order): PackedColumn {
    const { values, bases } = this.valuesOf(columns);
    const codes = new Uint32Array(order.rows.length);
    for (let r = 0; r < codes.length; r += 1) {
      const p = order.parts[r] as number;
      const row = order.rows[r] as number;
      const own = (columns[p] as PackedColumn).codes;
      codes[r] = (bases[p] as number) + (own ? (own[row] as number) : row);
    }
    return { ...values, codes };
  }

  private bySource(
    columns: readonly PackedColumn[],
    sourceBases: readonly number[],
    sourceCount: number,
  ): PackedColumn {
    const { values, bases } = this.valuesOf(columns);
    const codes = new Uint32Array(sourceCount);
    columns.forEach((c, p) => {
      const n = entriesOf(c);
      const at = sourceBases[p] as number;
      const base = bases[p] as number;
      for (let s = 0; s < n; s += 1) codes[at + s] = base + (c.codes ? (c.codes[s] as number) : s);
    });
    const merged: PackedColumn = { ...values, codes };
    if ((columns[0] as PackedColumn).bySource) merged.bySource = true;
    return merged;
  }
}

/** A table's parts when it is one section ordered by its `lines` (or `keys`). */
export function wholeTablePart(table: PackedTable, keys?: Uint32Array): TablePart {
  return keys ? { keys, ends: [0, table.rowCount] } : { ends: [0, table.rowCount] };
}

/**
 * The keys of an issues table's rows (`TablePart.keys`): each issue's feed line, the `finds`
 * (issues from `from` on, one per row of `rows`) ordered by their own rows instead (a blocking
 * check's issue comes in the order of the negative it is about).
 */
export function issueKeysOf(
  issues: readonly { rowNumber: number }[],
  rowPositions: Uint32Array,
  finds: { from: number; rows: readonly number[] } = { from: 0, rows: [] },
): Uint32Array {
  const line = (rowNumber: number): number =>
    rowNumber > 0 ? (rowPositions[rowNumber - 1] ?? -1) + 1 : 0;
  return Uint32Array.from(issues, (issue, i) => {
    const find = i - finds.from;
    return find >= 0 && find < finds.rows.length
      ? line((finds.rows[find] as number) + 1)
      : line(issue.rowNumber);
  });
}

/**
 * The outputs of a pool's parts as one: each table the first part lists in `tableParts` merged
 * (`PartsMerger`), the `counts` summed, every other field the first part's.
 */
export async function mergePartOutputs<T extends PartOutput>(
  outputs: readonly T[],
  counts: readonly (keyof T)[],
  pause: () => Promise<void> = yieldToPage,
): Promise<T> {
  const first = outputs[0] as T;
  const merged = { ...first } as Record<string, unknown>;
  const merger = new PartsMerger();
  for (const name of Object.keys(first.tableParts ?? {}))
    merged[name] = await merger.merge(
      outputs.map((o) => (o as unknown as Record<string, PackedTable>)[name] as PackedTable),
      outputs.map((o) => o.tableParts?.[name] as TablePart),
      pause,
    );
  for (const count of counts)
    merged[count as string] = outputs.reduce((n, o) => n + (o[count] as number), 0);
  delete merged.tableParts;
  return merged as T;
}
