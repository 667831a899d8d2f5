import { z } from 'zod';

/**
 * Google's geo targets (spec sections 2, 3, 5, 7 and 8): the search behind New Geo Feed.
 * Google publishes them as `geotargets-YYYY-MM-DD.csv` with the columns
 * `Criteria ID, Name, Canonical Name, Parent ID, Country Code, Target Type, Status`.
 */

/** Spec section 2: the 25 target types the modal offers, in its order. */
export const GEO_TARGET_TYPES = [
  'Airport',
  'Autonomous Community',
  'Borough',
  'Canton',
  'City',
  'City Region',
  'Congressional District',
  'Country',
  'County',
  'Department',
  'District',
  'Governorate',
  'Municipality',
  'National Park',
  'Neighborhood',
  'Okrug',
  'Postal Code',
  'Prefecture',
  'Province',
  'Region',
  'State',
  'Territory',
  'TV Region',
  'Union Territory',
  'University',
] as const;
/** One of Google's target types. */
export type GeoTargetType = (typeof GEO_TARGET_TYPES)[number];

/** The one target type whose search needs no country code (spec section 5). */
export const GEO_COUNTRY_TYPE: GeoTargetType = 'Country';

/** Spec section 2: the two-letter country codes the modal suggests (ISO 3166-1 and Kosovo's XK). */
export const GEO_COUNTRY_CODES: readonly string[] = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  'XK',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
];

/** Status Google gives a target it will remove in a coming release. */
export const GEO_REMOVAL_PLANNED = 'Removal Planned';

/** Longest canonical-name filter a search takes. */
export const GEO_FILTER_MAX_CHARS = 200;
/** Most targets one search preview lists. */
export const GEO_PREVIEW_MAX = 100;

/** One geo target (spec section 3), as the API answers it. */
export const GeoTargetSchema = z.object({
  criteriaId: z.number().int(),
  name: z.string(),
  /** The canonical name split on its commas: `['Berlin', 'Berlin', 'Germany']`. */
  canonicalName: z.array(z.string()),
  /** The parent's criteria ID; null when Google gives none. */
  parentId: z.number().int().nullable(),
  countryCode: z.string(),
  targetType: z.string(),
  /** 'Active', 'Removal Planned', or '' when the file gives none. */
  status: z.string(),
});
/** One geo target. */
export type GeoTarget = z.infer<typeof GeoTargetSchema>;

/**
 * The search of `POST /api/geo` (spec section 7: `{params:{countryCode, targetType}}`). The
 * country code is required unless the type is 'Country' (spec section 5). `parentId` and
 * `canonicalName` are the spec's client-side filters; the server applies them too, with the
 * same rule as `matchesGeoFilters`, so that only matching targets travel.
 */
export const GeoParamsSchema = z
  .object({
    countryCode: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .pipe(z.string().regex(/^([A-Z]{2})?$/, 'Country code must be two letters'))
      .optional(),
    targetType: z.enum(GEO_TARGET_TYPES),
    parentId: z
      .union([
        z.number().int().nonnegative(),
        z
          .string()
          .trim()
          .regex(/^\d{0,19}$/, 'Parent ID must be a number'),
      ])
      .optional(),
    canonicalName: z.string().max(GEO_FILTER_MAX_CHARS).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.targetType !== GEO_COUNTRY_TYPE && !p.countryCode) {
      ctx.addIssue({
        code: 'custom',
        path: ['countryCode'],
        message: 'Country code is required for any target type other than Country',
      });
    }
  });
/** The search of `POST /api/geo`, as sent. */
export type GeoParamsInput = z.input<typeof GeoParamsSchema>;
/** The search of `POST /api/geo`, as parsed. */
export type GeoParams = z.output<typeof GeoParamsSchema>;

/** `POST /api/geo` body (spec section 7). Answer: `GeoTarget[]` in criteria ID order. */
export const GeoBodySchema = z.object({ params: GeoParamsSchema });

/** Not in the spec: `POST /api/geo/search`, the live count and first matches of the modal. */
export const GeoSearchBodySchema = z.object({
  params: GeoParamsSchema,
  /** How many of the first matches to list (0 for the count alone). */
  limit: z.number().int().min(0).max(GEO_PREVIEW_MAX).default(20),
});
/** `POST /api/geo/search` body, as sent. */
export type GeoSearchBodyInput = z.input<typeof GeoSearchBodySchema>;

/** Most criteria IDs one `POST /api/geo/targets` looks up (a client sends more in turns). */
export const GEO_LOOKUP_MAX = 1000;

/**
 * Not in the spec: `POST /api/geo/targets`, Google's targets of some criteria IDs (their
 * canonical names and types, for the Microsoft Advertising download's locations).
 */
export const GeoLookupBodySchema = z.object({
  ids: z
    .array(z.string().regex(/^\d{1,18}$/, 'A criteria ID is a number of at most 18 digits'))
    .min(1, 'Give at least one criteria ID')
    .max(GEO_LOOKUP_MAX, `Give at most ${GEO_LOOKUP_MAX} criteria IDs at a time`),
});
/** `POST /api/geo/targets` body, as sent. */
export type GeoLookupBodyInput = z.input<typeof GeoLookupBodySchema>;

/** `POST /api/geo/targets` answer: the IDs found, in criteria ID order (the others are not). */
export const GeoLookupAnswerSchema = z.object({ targets: z.array(GeoTargetSchema) });
/** `POST /api/geo/targets` answer. */
export type GeoLookupAnswer = z.infer<typeof GeoLookupAnswerSchema>;

/** The geo targets release loaded on the server. */
export const GeoReleaseSchema = z.object({
  /** The release date (YYYY-MM-DD) from the file's name, or the file's date when it has none. */
  date: z.string(),
  /** The file or address it was loaded from (its last path segment only). */
  source: z.string(),
  rows: z.number().int(),
  loadedAt: z.string(),
});
/** The geo targets release loaded on the server. */
export type GeoRelease = z.infer<typeof GeoReleaseSchema>;

/** `POST /api/geo/search` answer. */
export const GeoSearchAnswerSchema = z.object({
  /** How many targets match every filter. */
  count: z.number().int(),
  /** How many of them Google marks 'Removal Planned'. */
  removalPlanned: z.number().int(),
  /** The first `limit` matches in criteria ID order. */
  targets: z.array(GeoTargetSchema),
});
/** `POST /api/geo/search` answer. */
export type GeoSearchAnswer = z.infer<typeof GeoSearchAnswerSchema>;

/** Not in the spec: `GET /api/geo/status`, whether geo targets are loaded and which release. */
export const GeoStatusSchema = z.object({ release: GeoReleaseSchema.nullable() });
/** `GET /api/geo/status` answer. */
export type GeoStatus = z.infer<typeof GeoStatusSchema>;

/**
 * Spec section 5, the client-side filters: the canonical name must contain the typed text
 * (case-insensitive) in some entry, and the parent ID must equal the entered number. Blank
 * filters match everything.
 */
export function matchesGeoFilters(
  target: Pick<GeoTarget, 'canonicalName' | 'parentId'>,
  filters: { canonicalName?: string | undefined; parentId?: string | number | undefined },
): boolean {
  const parent = filters.parentId === undefined ? '' : String(filters.parentId).trim();
  if (parent !== '' && String(target.parentId ?? '') !== String(Number(parent))) return false;
  const text = (filters.canonicalName ?? '').trim().toLowerCase();
  if (text === '') return true;
  return target.canonicalName.some((entry) => entry.toLowerCase().includes(text));
}

// ---- Messages (spec sections 2 and 8 where they have them) ----

export const GEO_MESSAGES = {
  /**
   * Spec section 7: the success notice of `POST /api/geo`; with `leftOut`, how many targets
   * marked Removal Planned were left out (the box may be ticked before the live count shows it).
   */
  creating: (n: number, leftOut = 0) =>
    `Creating feed from ${n.toLocaleString('en-US')} targets${leftOut > 0 ? ` (${leftOut.toLocaleString('en-US')} marked Removal Planned left out)` : ''}`,
  /** Spec section 8. */
  none: 'No geo targets were found. Check filters and try again',
  /** Spec section 2: the disabled submit's tooltip. */
  required: 'Please fill out the required fields (*)',
  /** Spec section 2: the footnotes. */
  footnotes: '(*) Required. (**) Required if choosing anything other than Country for Target Type',
  /** 409 `geo_not_loaded`, and the modal when the server has no geo targets. */
  notLoaded:
    'Google\'s geo targets are not loaded on this server. An administrator loads them with npm run geo:load -- FILE or the GEO_TARGETS_FILE setting (see the README, "Geo targets").',
  /** A search matching more targets than a feed holds. */
  tooMany: (n: number, max: number) =>
    `${n.toLocaleString('en-US')} targets match, more than a feed holds (${max.toLocaleString('en-US')}). Narrow the filters and try again`,
} as const;
