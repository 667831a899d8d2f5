import { newFeedCells } from '@adloom/engine';
import {
  GEO_COUNTRY_TYPE,
  GEO_REMOVAL_PLANNED,
  GEO_TARGET_TYPES,
  GeoParamsSchema,
  matchesGeoFilters,
  type GeoParamsInput,
  type GeoTarget,
  type GeoTargetType,
} from '@adloom/contract';
import type { FeedRow } from '@adloom/engine';

/** The New Geo Feed form as typed (spec section 2, "Geo feed modal"). */
export interface GeoForm {
  name: string;
  /** '' until a type is chosen. */
  targetType: GeoTargetType | '';
  countryCode: string;
  parentId: string;
  canonicalName: string;
}

/** The form as the modal opens. */
export const EMPTY_GEO_FORM: GeoForm = {
  name: '',
  targetType: '',
  countryCode: '',
  parentId: '',
  canonicalName: '',
};

/** Longest parent ID the form takes (a criteria ID is a 64-bit number). */
export const GEO_PARENT_ID_MAX_CHARS = 19;

/** Reads a chosen target type ('' for anything else). */
export function toTargetType(value: string): GeoTargetType | '' {
  return (GEO_TARGET_TYPES as readonly string[]).includes(value) ? (value as GeoTargetType) : '';
}

/** Spec section 5: the country code as typed, forced to upper case and two letters at most. */
export function cleanCountryCode(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 2);
}

/** Spec section 5: the parent ID is numeric (digits only, as typed). */
export function cleanParentId(text: string): string {
  return text.replace(/\D/g, '').slice(0, GEO_PARENT_ID_MAX_CHARS);
}

/** Whether the country code is required: for every target type but Country (spec section 5). */
export function isCountryCodeRequired(form: Pick<GeoForm, 'targetType'>): boolean {
  return form.targetType !== GEO_COUNTRY_TYPE;
}

/**
 * The search the form describes (blank filters left out), or null while it is incomplete: no
 * target type yet, or no two-letter country code for a type other than Country.
 */
export function toGeoParams(form: GeoForm): GeoParamsInput | null {
  if (form.targetType === '') return null;
  const params: GeoParamsInput = {
    targetType: form.targetType,
    ...(form.countryCode.trim() ? { countryCode: form.countryCode.trim() } : {}),
    ...(form.parentId.trim() ? { parentId: form.parentId.trim() } : {}),
    ...(form.canonicalName.trim() ? { canonicalName: form.canonicalName.trim() } : {}),
  };
  return GeoParamsSchema.safeParse(params).success ? params : null;
}

/** Spec section 5: Create Feed needs a name, a target type and (but for Country) a country code. */
export function canCreateGeoFeed(form: GeoForm): boolean {
  return form.name.trim() !== '' && toGeoParams(form) !== null;
}

/** The country code field's problem, if any (shown once something is typed). */
export function findCountryCodeProblem(form: GeoForm): string | undefined {
  return form.countryCode.length === 1 ? 'Two letters, e.g. DE' : undefined;
}

/** Whether Google marks a target for removal in a coming release. */
export function isRemovalPlanned(target: Pick<GeoTarget, 'status'>): boolean {
  return target.status === GEO_REMOVAL_PLANNED;
}

/**
 * Spec sections 3 and 5: a geo feed's rows from the targets of `POST /api/geo`, filtered again
 * on the client by the form's parent ID and canonical-name text; targets marked Removal Planned
 * are left out when asked. Root holds the criteria ID, mod the name, the other cells are empty.
 */
export function toGeoFeedRows(
  targets: readonly GeoTarget[],
  form: Pick<GeoForm, 'parentId' | 'canonicalName'>,
  options: { leaveOutRemovalPlanned: boolean },
): Omit<FeedRow, 'id'>[] {
  const rows: Omit<FeedRow, 'id'>[] = [];
  for (const target of targets) {
    if (!matchesGeoFilters(target, form)) continue;
    if (options.leaveOutRemovalPlanned && isRemovalPlanned(target)) continue;
    rows.push({ ...newFeedCells(), root: String(target.criteriaId), mod: target.name });
  }
  return rows;
}
