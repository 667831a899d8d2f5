import type { CampaignTemplate } from '@adloom/engine';

/** A name pattern of a campaign template: its field's label and an example to type. */
export interface NamePatternField {
  key: 'campaign' | 'adGroup' | 'assetGroup';
  label: string;
  example: string;
  /** What the pattern names, in a sentence ("each row's asset group"). */
  names: string;
}

const CAMPAIGN: NamePatternField = {
  key: 'campaign',
  label: 'Campaign name pattern',
  example: '{root} - Search',
  names: "each row's campaign",
};
const AD_GROUP: NamePatternField = {
  key: 'adGroup',
  label: 'Ad group name pattern',
  example: '{root} {mod} - {mt}',
  names: "each row's ad group",
};
const ASSET_GROUP: NamePatternField = {
  key: 'assetGroup',
  label: 'Asset group pattern',
  example: '{root} {mod}',
  names: "each row's asset group",
};

/** The name patterns a template of this type generates from, in the order the form shows them. */
export function namePatternFields(template: CampaignTemplate): NamePatternField[] {
  return [CAMPAIGN, template.type === 'performance' ? ASSET_GROUP : AD_GROUP];
}

/** What the field says while its pattern is empty (every row would be skipped). */
export function emptyPatternMessage(field: NamePatternField): string {
  return `Needed: it names ${field.names}. Without it every row is skipped.`;
}

/**
 * Why Generate cannot make anything from this template yet (a name pattern left empty), or
 * null. Said instead of generating an output of nothing with every row skipped.
 */
export function findMissingPattern(template: CampaignTemplate): string | null {
  const missing = namePatternFields(template).find((field) => template[field.key].trim() === '');
  if (!missing) return null;
  const what = missing.label.toLowerCase();
  const article = /^[aeiou]/.test(what) ? 'an' : 'a';
  return `Type ${article} ${what} first (for example ${missing.example}): it names ${missing.names}.`;
}
