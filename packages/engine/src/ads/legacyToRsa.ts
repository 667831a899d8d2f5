/**
 * Legacy expanded text ad templates into responsive search ad templates: Google stopped
 * accepting new expanded text ads in June 2022, so the web app's "Convert to RSA template" and
 * the command line both turn them into RSA fallbacks with this one conversion.
 */
import { RSA_MIN_DESCRIPTIONS, RSA_MIN_HEADLINES } from '../limits.ts';
import { makeUniqueName } from '../names.ts';
import { newRsaFallback } from '../restore.ts';
import type { RowIssue } from '../issues.ts';
import type { AdFallback, AdTemplate, RsaFallback, RsaTemplate } from '../types.ts';

/** What converting a legacy template made, and what the person still has to fill in. */
export interface ConvertedLegacyAd {
  /** One RSA template per legacy version (most legacy templates have one). */
  templates: RsaTemplate[];
  /** Headlines or descriptions left empty, which an RSA needs before it can be generated. */
  notes: string[];
}

/** Legacy labels were one Editor cell: several labels in it are separated by ';'. */
function splitLabels(label: string): string[] {
  const labels = label
    .split(';')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return labels.length ? labels : [''];
}

/**
 * One expanded text ad fallback as an RSA fallback: h1-h3 become the three headlines, dl1-dl2
 * the two descriptions (all free placement, as Google recommends), p1/p2 the paths and the label
 * the labels. Empty headlines and descriptions stay as empty inputs so the editor shows the
 * minimum 3 and 2 where they are to be filled in.
 */
export function convertLegacyAdFallback(fallback: AdFallback): RsaFallback {
  return {
    headlines: [fallback.h1, fallback.h2, fallback.h3].map((text) => ({ text, pos: 0 })),
    descriptions: [fallback.dl1, fallback.dl2].map((text) => ({ text, pos: 0 })),
    paths: [fallback.p1, fallback.p2],
    labels: splitLabels(fallback.label),
  };
}

function describeGaps(fallback: AdFallback, where: string): string[] {
  const notes: string[] = [];
  const headlines = [fallback.h1, fallback.h2, fallback.h3];
  const emptyHeadlines = headlines.flatMap((h, i) =>
    h.trim() === '' ? [`Headline ${i + 1}`] : [],
  );
  if (emptyHeadlines.length) {
    notes.push(
      `${where}: ${emptyHeadlines.join(', ')} ${emptyHeadlines.length === 1 ? 'is' : 'are'} empty; a responsive search ad needs at least ${RSA_MIN_HEADLINES} headlines.`,
    );
  }
  const emptyDescriptions = [fallback.dl1, fallback.dl2].flatMap((d, i) =>
    d.trim() === '' ? [`Description ${i + 1}`] : [],
  );
  if (emptyDescriptions.length) {
    notes.push(
      `${where}: ${emptyDescriptions.join(', ')} ${emptyDescriptions.length === 1 ? 'is' : 'are'} empty; a responsive search ad needs at least ${RSA_MIN_DESCRIPTIONS} descriptions.`,
    );
  }
  return notes;
}

/**
 * Turns a legacy expanded text ad template into RSA templates in one step. Each version becomes
 * one RSA template whose fallbacks are that version's fallbacks in order; the name is the legacy
 * name (with ' v1', ' v2' ... when there are several versions), made unique among
 * `existingRsaNames` with the ' (n)' rule. The legacy template itself is left untouched.
 */
export function convertLegacyAdTemplate(
  legacy: AdTemplate,
  existingRsaNames: Iterable<string>,
): ConvertedLegacyAd {
  const taken = new Set(existingRsaNames);
  const templates: RsaTemplate[] = [];
  const notes: string[] = [];
  const hasVersions = legacy.templates.length > 1;
  legacy.templates.forEach((version, v) => {
    const base = hasVersions ? `${legacy.name} v${v + 1}` : legacy.name;
    const name = makeUniqueName(base, taken);
    taken.add(name);
    const fallbacks = version.map(convertLegacyAdFallback);
    templates.push({ name, templates: fallbacks.length ? fallbacks : [newRsaFallback()] });
    version.forEach((f, i) => notes.push(...describeGaps(f, `${name}, fallback ${i + 1}`)));
  });
  return { templates, notes };
}

/**
 * What a run reports when it converts a legacy template instead of writing expanded text ads:
 * the conversion itself (cleaned), then each headline or description still to be filled in
 * (a warning: rows it leaves without a valid fallback are reported by the RSA generation).
 */
export function reportLegacyConversion(
  legacy: AdTemplate,
  converted: ConvertedLegacyAd,
): RowIssue[] {
  const names = converted.templates.map((t) => `"${t.name}"`).join(', ');
  const issue = (kind: RowIssue['kind'], code: string, message: string): RowIssue => ({
    kind,
    output: 'responsive search ads',
    rowId: '',
    rowNumber: 0,
    code,
    message,
  });
  return [
    issue(
      'cleaned',
      'legacy-converted',
      `Legacy expanded text ad template "${legacy.name}" converted to the responsive search ad ${converted.templates.length === 1 ? 'template' : 'templates'} ${names}: Google stopped accepting expanded text ads in June 2022`,
    ),
    ...converted.notes.map((note) => issue('warning', 'legacy-gap', note)),
  ];
}
