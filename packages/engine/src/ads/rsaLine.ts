/**
 * A responsive search ad's Editor line written as bytes (the `adloom` command's RSA file): each
 * fallback's fixed cells compiled once (`rsaLinePlan`), each ad writing only its own cells
 * (`writeRsaLine`). The same line as export.ts's `responsiveSearchAdCells` makes as cells.
 */
import { csvBytesOf, type CsvBytes } from '../csvBytes.ts';
import { RSA_AD_TYPE, RSA_MAX_DESCRIPTIONS, RSA_MAX_HEADLINES } from '../limits.ts';

/** The cells of positions 1-3, made once instead of per ad (index 0 is unused). */
const PIN_CELLS: readonly string[] = ['', '1', '2', '3'];

/** Editor's position cell: the pinned position, empty when unpinned. */
export function pinCell(pos: number | undefined): string {
  return pos !== undefined && pos > 0 ? (PIN_CELLS[pos] ?? String(pos)) : '';
}

/**
 * What every line of one RSA fallback has in common, for `rsaLinePlan`: each text fixed for
 * the fallback (undefined: filled per row), the pins and the labels.
 */
export interface RsaLineFixed {
  headlines: readonly (string | undefined)[];
  headlinePositions: readonly number[];
  descriptions: readonly (string | undefined)[];
  descriptionPositions: readonly number[];
  paths: readonly (string | undefined)[];
  labels: readonly string[];
}

/**
 * The cells an RSA line takes per ad (`RsaLinePlan.refs`): campaign, ad group, final URL, and
 * the per-row headline, description or path at `HEADLINE_REF + i` and so on.
 */
const CAMPAIGN_REF = 0;
const AD_GROUP_REF = 1;
const FINAL_URL_REF = 2;
const HEADLINE_REF = 100;
const DESCRIPTION_REF = 200;
const PATH_REF = 300;

/**
 * One fallback's RSA line as `responsiveSearchAdCells` lays it out, compiled for `writeRsaLine`:
 * the bytes of the fixed cells between the per-ad ones (commas and the line end included), so
 * that a line costs only its per-ad cells.
 */
export interface RsaLinePlan {
  /** `pieces[k]` comes before the cell of `refs[k]`; the last piece ends the line. */
  pieces: Uint8Array[];
  refs: Int16Array;
}

/** Compiles the line of a fallback (see `RsaLinePlan`). */
export function rsaLinePlan(fixed: RsaLineFixed): RsaLinePlan {
  // The line's cells: a fixed text, or the ref of a per-ad cell.
  const cells: Array<string | number> = [CAMPAIGN_REF, AD_GROUP_REF, RSA_AD_TYPE];
  const texts = (list: readonly (string | undefined)[], n: number, ref: number): void => {
    for (let i = 0; i < n; i++) {
      if (i >= list.length) cells.push('');
      else cells.push(list[i] ?? ref + i);
    }
  };
  texts(fixed.headlines, RSA_MAX_HEADLINES, HEADLINE_REF);
  for (let i = 0; i < RSA_MAX_HEADLINES; i++) cells.push(pinCell(fixed.headlinePositions[i]));
  texts(fixed.descriptions, RSA_MAX_DESCRIPTIONS, DESCRIPTION_REF);
  for (let i = 0; i < RSA_MAX_DESCRIPTIONS; i++) cells.push(pinCell(fixed.descriptionPositions[i]));
  texts(fixed.paths, 2, PATH_REF);
  cells.push(FINAL_URL_REF, fixed.labels.join(';'));
  const pieces: Uint8Array[] = [];
  const refs: number[] = [];
  let from = 0;
  for (let i = 0; i <= cells.length; i++) {
    const cell = cells[i];
    if (typeof cell === 'string') continue;
    // The fixed cells from..i-1, each after its comma; then the comma of cell i, or the line end.
    pieces.push(
      csvBytesOf((csv) => {
        for (let k = from; k < i; k++) {
          if (k > 0) csv.text(',');
          csv.cell(cells[k] as string);
        }
        csv.text(i === cells.length ? '\r\n' : i > 0 ? ',' : '');
      }),
    );
    if (cell !== undefined) refs.push(cell);
    from = i + 1;
  }
  return { pieces, refs: Int16Array.from(refs) };
}

/** The per-ad cells of an RSA line (`writeRsaLine`); lists as `RsaAd`'s. */
export interface RsaLineCells {
  campaign: string;
  adGroup: string;
  headlines: readonly string[];
  descriptions: readonly string[];
  paths: readonly string[];
  finalUrl: string;
}

/**
 * Writes a per-ad text's cell its own way (`list`: 0 headlines, 1 descriptions, 2 paths; `i`:
 * the text's index), returning true, or false to have the text written as a cell.
 */
export type RsaTextCellWriter = (csv: CsvBytes, list: number, i: number) => boolean;

/**
 * Writes an RSA line into `csv` from its fallback's plan and the ad's own cells: the bytes
 * equal `responsiveSearchAdCells`' line as `CsvBytes.line` writes it, with no cells array and
 * the fixed cells copied, not scanned. `textCell` may write a text's cell from its pieces.
 */
export function writeRsaLine(
  csv: CsvBytes,
  plan: RsaLinePlan,
  ad: RsaLineCells,
  textCell?: RsaTextCellWriter,
): void {
  const { pieces, refs } = plan;
  for (let k = 0; k < refs.length; k++) {
    csv.bytes(pieces[k] as Uint8Array);
    const ref = refs[k] as number;
    let s: string | undefined;
    if (ref >= HEADLINE_REF) {
      const list = ref >= PATH_REF ? 2 : ref >= DESCRIPTION_REF ? 1 : 0;
      const i = ref - (list === 2 ? PATH_REF : list === 1 ? DESCRIPTION_REF : HEADLINE_REF);
      if (textCell?.(csv, list, i)) continue;
      s = (list === 2 ? ad.paths : list === 1 ? ad.descriptions : ad.headlines)[i];
    } else if (ref === CAMPAIGN_REF) s = ad.campaign;
    else if (ref === AD_GROUP_REF) s = ad.adGroup;
    else s = ad.finalUrl;
    csv.cell(s ?? '');
  }
  csv.bytes(pieces[refs.length] as Uint8Array);
}
