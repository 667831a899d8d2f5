import type { GeoRelease, GeoTarget } from '@adloom/contract';
import type { GeoReleaseRecord, GeoTargetRecord } from '../db/geo.ts';

/** A stored geo target as the API answers it: the canonical name split on its commas. */
export function presentGeoTarget(row: GeoTargetRecord): GeoTarget {
  return {
    criteriaId: Number(row.criteria_id),
    name: row.name,
    canonicalName: row.canonical_name.split(','),
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    countryCode: row.country_code,
    targetType: row.target_type,
    status: row.status,
  };
}

/** The stored release as the API answers it. */
export function presentGeoRelease(row: GeoReleaseRecord): GeoRelease {
  return {
    date: row.release_date,
    source: row.source,
    rows: row.row_count,
    loadedAt: row.loaded_at.toISOString(),
  };
}
