/**
 * The client's label on what the command writes (`--label`, default `adloom`): in the Labels
 * column of campaigns (through the Editor format), ad groups and keywords (a column added to the
 * streamed lines) and responsive search ads (added to each fallback's labels, so the ads' own
 * writers carry it), so an Editor export of the account tells Adloom's items from hand-made ones.
 */
import {
  addLabel,
  formatCsvLine,
  normalizeHeader,
  type AdTemplate,
  type RsaTemplate,
} from '@adloom/engine';
import { csvRecordsOfFile } from './fileTables.ts';

/** Why a label cannot be the client's label, or undefined when it can. */
export function clientLabelProblem(label: string): string | undefined {
  if (label.trim() === '') return '--label must not be empty';
  if (label.includes(';'))
    return `--label must not contain ";" (it separates labels in Editor's Labels column): "${label}"`;
  if (/[\r\n\t]/.test(label)) return `--label must be one line without tabs: "${label}"`;
  return undefined;
}

/**
 * Adds a Labels column to the streamed keyword lines (header first): each line's end gets
 * `,label`, the header's `,Labels`. A chunk cut inside a line break keeps its `\r` for the next.
 */
export class KeywordLabels {
  private readonly cell: string;
  private headerDone = false;
  private carry = '';

  constructor(label: string) {
    this.cell = `,${formatCsvLine([label])}`;
  }

  apply(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    if (text.endsWith('\r')) {
      this.carry = '\r';
      text = text.slice(0, -1);
    }
    if (!this.headerDone) {
      const end = text.indexOf('\r\n');
      if (end < 0) {
        this.carry = text + this.carry;
        return '';
      }
      this.headerDone = true;
      return `${text.slice(0, end)},Labels\r\n${text.slice(end + 2).replaceAll('\r\n', this.cell)}`;
    }
    return text.replaceAll('\r\n', this.cell);
  }

  /** What is left (a lone `\r`). */
  end(): string {
    const rest = this.carry;
    this.carry = '';
    return rest;
  }
}

/** The template with the label after each fallback's own labels (never twice). */
export function labelRsaTemplate(template: RsaTemplate, label: string): RsaTemplate {
  return {
    ...template,
    templates: template.templates.map((f) => ({
      ...f,
      labels: addLabel(f.labels.filter((l) => l.trim() !== '').join(';'), label).split(';'),
    })),
  };
}

/** The legacy template with the label after each fallback's own (`;`-separated) label. */
export function labelAdTemplate(template: AdTemplate, label: string): AdTemplate {
  return {
    ...template,
    templates: template.templates.map((version) =>
      version.map((f) => ({ ...f, label: addLabel(f.label, label) })),
    ),
  };
}

/**
 * The feed line of each responsive search ad: its ad group's (an ad is made from its group's
 * first row). Ads follow their groups' order, one per group at most, so both files are walked
 * together; an ad whose group is not found gets 0.
 */
export function adsMatchedToGroups(
  adGroupsFile: string,
  adsFile: string,
  groupLines: ArrayLike<number>,
): Uint32Array {
  const groups = csvRecordsOfFile(adGroupsFile);
  const ads = csvRecordsOfFile(adsFile);
  const gh = groups.next();
  const ah = ads.next();
  if (gh.done || ah.done) return new Uint32Array(0);
  const gCampaign = gh.value.map(normalizeHeader).indexOf('campaign');
  const gGroup = gh.value.map(normalizeHeader).indexOf('adgroup');
  const aCampaign = ah.value.map(normalizeHeader).indexOf('campaign');
  const aGroup = ah.value.map(normalizeHeader).indexOf('adgroup');
  const lines: number[] = [];
  let g = -1;
  let group: string[] | undefined;
  let exhausted = false;
  for (const ad of ads) {
    const campaign = ad[aCampaign] ?? '';
    const adGroup = ad[aGroup] ?? '';
    while (
      !exhausted &&
      (group === undefined || group[gCampaign] !== campaign || group[gGroup] !== adGroup)
    ) {
      const next = groups.next();
      if (next.done) {
        exhausted = true;
        group = undefined;
        break;
      }
      group = next.value;
      g++;
    }
    lines.push(group ? (groupLines[g] ?? 0) : 0);
  }
  return Uint32Array.from(lines);
}
