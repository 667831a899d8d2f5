/**
 * Google criteria IDs to Microsoft Advertising Location Ids, by the location's names and type
 * (docs/decisions.md, "Microsoft Advertising: locations"). No mapping between the two is
 * published: Google's geo targets file gives each criteria ID its canonical name
 * (`Seattle,Washington,United States`) and target type; Microsoft's geographical locations file
 * (format version 2.0) gives each Location Id its Bing Display Name (`Seattle|Washington|United
 * States`, most specific first), Location Type and Status. A Google location maps to the one
 * Active Microsoft location whose name parts agree with its own, in the same order, and whose
 * type is its type's counterpart; an ambiguous or missing match is never guessed: the answer is
 * the reason, for the report.
 */

/** A Microsoft location a Google criteria ID maps to, or why it maps to none. */
export type MicrosoftLocationAnswer = { id: string } | { reason: string };

/** The columns of Microsoft's geographical locations file read here (others are ignored). */
export const MICROSOFT_LOCATION_COLUMNS = [
  'Location Id',
  'Bing Display Name',
  'Location Type',
  'Status',
] as const;

/** The columns of Google's geo targets file read here (others are ignored). */
export const GOOGLE_GEO_COLUMNS = ['Criteria ID', 'Canonical Name', 'Target Type'] as const;

/**
 * Microsoft's Location Type for each Google Target Type Adloom maps (both compared without case,
 * spaces or punctuation). State is Microsoft's first-level division: Google's State, Province,
 * Region and the first-level types some countries have. Types not listed (Airport, Municipality,
 * Neighborhood, Department, District, Borough…) are reported, not guessed.
 */
const MICROSOFT_TYPE_OF_GOOGLE_TYPE: ReadonlyMap<string, string> = new Map(
  (
    [
      ['Country', 'Country'],
      ['State', 'State'],
      ['Province', 'State'],
      ['Region', 'State'],
      ['Territory', 'State'],
      ['Autonomous Community', 'State'],
      ['Prefecture', 'State'],
      ['Union Territory', 'State'],
      ['Canton', 'State'],
      ['Governorate', 'State'],
      ['City', 'City'],
      ['County', 'County'],
      ['Postal Code', 'PostalCode'],
      ['DMA Region', 'MetroArea'],
    ] as const
  ).map(([google, microsoft]) => [typeKey(google), typeKey(microsoft)]),
);

/** A type name compared without case, spaces or punctuation (`Postal Code` = `PostalCode`). */
function typeKey(type: string): string {
  return type.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Letters NFD does not take apart, written as their plain Latin letters. */
const FOLDED_LETTERS: ReadonlyMap<string, string> = new Map([
  ['ß', 'ss'],
  ['æ', 'ae'],
  ['œ', 'oe'],
  ['ø', 'o'],
  ['ł', 'l'],
  ['đ', 'd'],
  ['ð', 'd'],
  ['þ', 'th'],
  ['ı', 'i'],
]);
const FOLDED = new RegExp(`[${[...FOLDED_LETTERS.keys()].join('')}]`, 'gu');

/**
 * A location name's part as compared: lowercase, accents removed (NFD, marks dropped, and
 * ß æ œ ø ł đ ð þ ı as plain letters), punctuation and symbols as spaces, spaces collapsed.
 */
export function normalizeLocationName(part: string): string {
  return part
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(FOLDED, (c) => FOLDED_LETTERS.get(c)!)
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
}

/**
 * The compared parts of a name whose parts are separated by `separator`, most specific first.
 * A comma also separates parts, on both sides: Google's canonical names are comma-separated, so
 * a name holding a comma ("Saint Helena, Ascension and Tristan da Cunha") reads as two parts
 * there, and is read so in Microsoft's name too. Empty parts are dropped.
 */
function nameParts(name: string, separator: string): string[] {
  const parts: string[] = [];
  for (const piece of name.split(separator))
    for (const sub of piece.split(',')) {
      const part = normalizeLocationName(sub);
      if (part !== '') parts.push(part);
    }
  return parts;
}

const keyOfParts = (parts: readonly string[]): string => parts.join('|');

/** A Google canonical name as Microsoft's rows are indexed by (the compared parts). */
const keyOfCanonicalName = (canonicalName: string): string =>
  keyOfParts(nameParts(canonicalName, ','));

/** The index of each wanted column in a header (compared without case or outer spaces). */
function columnsOf<const K extends string>(
  header: readonly string[],
  wanted: readonly K[],
): { at: Record<K, number>; missing: K[] } {
  const names = header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim().toLowerCase());
  const at = {} as Record<K, number>;
  const missing: K[] = [];
  for (const w of wanted) {
    at[w] = names.indexOf(w.toLowerCase());
    if (at[w] < 0) missing.push(w);
  }
  return { at, missing };
}

/** One row of Microsoft's file, as compared. */
interface MicrosoftLocation {
  id: string;
  display: string;
  type: string;
  status: string;
}

/** Microsoft's geographical locations file, indexed by compared name. */
export interface MicrosoftLocations {
  readonly kind: 'microsoft-locations';
  /** Rows read (the header not counted). */
  readonly rows: number;
  /** Rows under each compared name. */
  readonly byName: ReadonlyMap<string, readonly MicrosoftLocation[]>;
}

/** Google's geo targets file: each criteria ID's canonical name and target type. */
export interface GoogleGeoTargets {
  readonly kind: 'google-geo-targets';
  readonly byId: ReadonlyMap<string, { canonicalName: string; targetType: string }>;
}

/** A file read, or why it cannot be used. */
export type LocationFileReading<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Reads Microsoft's geographical locations file (its records, header first: Location Id, Bing
 * Display Name, Location Type, Status in any order; other columns ignored). Every row is kept,
 * Active or not, so a match found only among other statuses can say so; with `names`
 * (`locationNamesOf` the Google targets asked about), only the rows of those names.
 */
export function readMicrosoftLocations(
  records: Iterable<readonly string[]>,
  names?: ReadonlySet<string>,
): LocationFileReading<MicrosoftLocations> {
  const byName = new Map<string, MicrosoftLocation[]>();
  let at: Record<(typeof MICROSOFT_LOCATION_COLUMNS)[number], number> | undefined;
  let rows = 0;
  for (const record of records) {
    if (!at) {
      const columns = columnsOf(record, MICROSOFT_LOCATION_COLUMNS);
      if (columns.missing.length > 0)
        return {
          ok: false,
          problem: `is not Microsoft's geographical locations file (format version 2.0): no ${columns.missing.join(', ')} column`,
        };
      at = columns.at;
      continue;
    }
    const id = (record[at['Location Id']] ?? '').trim();
    const display = record[at['Bing Display Name']] ?? '';
    if (id === '' && display === '') continue;
    rows++;
    const key = keyOfParts(nameParts(display, '|'));
    // A Location Id is a number (the Campaign Location Criterion's Target): others are not kept.
    if (!/^\d+$/.test(id) || key === '' || (names && !names.has(key))) continue;
    const location: MicrosoftLocation = {
      id,
      display,
      type: (record[at['Location Type']] ?? '').trim(),
      status: (record[at.Status] ?? '').trim(),
    };
    const list = byName.get(key);
    if (list) list.push(location);
    else byName.set(key, [location]);
  }
  if (!at) return { ok: false, problem: 'is empty' };
  return { ok: true, value: { kind: 'microsoft-locations', rows, byName } };
}

/**
 * Reads Google's geo targets file (its records, header first: Criteria ID, Canonical Name,
 * Target Type in any order; other columns ignored); with `ids`, only those criteria IDs.
 */
/** Google's geo targets from targets already read (e.g. the server's, by criteria ID). */
export function googleGeoTargetsOf(
  targets: Iterable<{ criteriaId: string; canonicalName: string; targetType: string }>,
): GoogleGeoTargets {
  const byId = new Map<string, { canonicalName: string; targetType: string }>();
  for (const t of targets)
    byId.set(t.criteriaId, { canonicalName: t.canonicalName, targetType: t.targetType });
  return { kind: 'google-geo-targets', byId };
}

export function readGoogleGeoTargets(
  records: Iterable<readonly string[]>,
  ids?: ReadonlySet<string>,
): LocationFileReading<GoogleGeoTargets> {
  const targets: { criteriaId: string; canonicalName: string; targetType: string }[] = [];
  let at: Record<(typeof GOOGLE_GEO_COLUMNS)[number], number> | undefined;
  for (const record of records) {
    if (!at) {
      const columns = columnsOf(record, GOOGLE_GEO_COLUMNS);
      if (columns.missing.length > 0)
        return {
          ok: false,
          problem: `is not Google's geo targets file: no ${columns.missing.join(', ')} column`,
        };
      at = columns.at;
      continue;
    }
    const id = (record[at['Criteria ID']] ?? '').trim();
    if (id === '' || (ids && !ids.has(id))) continue;
    targets.push({
      criteriaId: id,
      canonicalName: record[at['Canonical Name']] ?? '',
      targetType: (record[at['Target Type']] ?? '').trim(),
    });
  }
  if (!at) return { ok: false, problem: 'is empty' };
  return { ok: true, value: googleGeoTargetsOf(targets) };
}

/** The compared names of the Google targets read: what `readMicrosoftLocations` needs to keep. */
export function locationNamesOf(google: GoogleGeoTargets): Set<string> {
  const names = new Set<string>();
  for (const target of google.byId.values()) names.add(keyOfCanonicalName(target.canonicalName));
  return names;
}

/** At most this many Location Ids are named in one reason. */
const IDS_NAMED_MAX = 5;

function idList(locations: readonly MicrosoftLocation[]): string {
  const ids = [...new Set(locations.map((l) => l.id))];
  return ids.length > IDS_NAMED_MAX
    ? `${ids.slice(0, IDS_NAMED_MAX).join(', ')} and ${ids.length - IDS_NAMED_MAX} more`
    : ids.join(', ');
}

const ADD_IT = 'add the location in Microsoft Advertising';

/** Maps Google criteria IDs to Microsoft Location Ids by name and type; see the file's comment. */
export function matchMicrosoftLocation(
  google: GoogleGeoTargets,
  microsoft: MicrosoftLocations,
  googleId: string,
): MicrosoftLocationAnswer {
  const target = google.byId.get(googleId);
  if (!target)
    return {
      reason: `Google location ${googleId} is not in the Google geo targets file, so its name is unknown: ${ADD_IT}`,
    };
  const what = `Google location ${googleId} (${target.targetType} "${target.canonicalName}")`;
  const type = MICROSOFT_TYPE_OF_GOOGLE_TYPE.get(typeKey(target.targetType));
  if (type === undefined)
    return {
      reason: `${what}: Google's ${target.targetType || 'blank'} type has no Microsoft location type Adloom matches: ${ADD_IT}`,
    };
  const named = microsoft.byName.get(keyOfCanonicalName(target.canonicalName));
  const ofType = (named ?? []).filter((l) => typeKey(l.type) === type);
  const active = ofType.filter((l) => l.status.toLowerCase() === 'active');
  const ids = new Set(active.map((l) => l.id));
  if (ids.size === 1) return { id: active[0]!.id };
  if (ids.size > 1)
    return {
      reason: `${what}: ${ids.size} Active Microsoft ${active[0]!.type} locations have its name (${idList(active)}); Adloom does not guess: ${ADD_IT}`,
    };
  if (ofType.length > 0)
    return {
      reason: `${what}: Microsoft's location of its name and type (${idList(ofType)}) is ${[...new Set(ofType.map((l) => l.status || 'without a status'))].join(', ')}, not Active: ${ADD_IT}`,
    };
  if (named && named.length > 0)
    return {
      reason: `${what}: Microsoft has its name only as ${[...new Set(named.map((l) => l.type || 'no type'))].join(', ')} (${idList(named)}), not as its type: ${ADD_IT}`,
    };
  return {
    reason: `${what}: no Microsoft location has its name (the Bing Display Name's parts, compared without case, accents or punctuation): ${ADD_IT}`,
  };
}

/**
 * The host's `microsoftLocationId` for the Microsoft format: each Google criteria ID's answer
 * (remembered), and how many distinct IDs were mapped and not.
 */
export function microsoftLocationLookup(
  google: GoogleGeoTargets,
  microsoft: MicrosoftLocations,
): {
  microsoftLocationId: (googleId: string) => MicrosoftLocationAnswer;
  counts: () => { mapped: number; notMapped: number };
} {
  const answers = new Map<string, MicrosoftLocationAnswer>();
  return {
    microsoftLocationId: (googleId) => {
      let answer = answers.get(googleId);
      if (!answer) {
        answer = matchMicrosoftLocation(google, microsoft, googleId);
        answers.set(googleId, answer);
      }
      return answer;
    },
    counts: () => {
      let mapped = 0;
      for (const a of answers.values()) if ('id' in a) mapped++;
      return { mapped, notMapped: answers.size - mapped };
    },
  };
}
