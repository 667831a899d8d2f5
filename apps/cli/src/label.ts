/**
 * The client's label on what the command writes (`--label`, default `adloom`), so an Editor
 * export of the account tells Adloom's items from hand-made ones. The Google Ads Editor format
 * says where it goes (`GOOGLE_ADS_EDITOR.stream`); the ads carry it in their fallbacks' labels
 * (here), so the ads' own writers write it.
 */
import { addLabel, normalizeHeader, type AdTemplate, type RsaTemplate } from '@adloom/engine';
import { csvRecordsOfFile } from './fileTables.ts';

/** Why a label cannot be the client's label, or undefined when it can. */
export function clientLabelProblem(label: string): string | undefined {
  if (label.trim() === '') return '--label must not be empty';
  if (label.includes(';'))
    return `--label must not contain ";" (it separates labels in Editor's Labels column): "${label}"`;
  if (/[\r\n\t]/.test(label)) return `--label must be one line without tabs: "${label}"`;
  return undefined;
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
