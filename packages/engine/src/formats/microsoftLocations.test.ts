/**
 * Google criteria IDs to Microsoft Location Ids by name and type, on a hand-made Microsoft file in
 * the documented layout (test/fixtures/microsoft-locations) against the committed extract of
 * Google's geo targets (apps/server/test/fixtures/geo).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../csv.ts';
import {
  type GoogleGeoTargets,
  type MicrosoftLocationAnswer,
  type MicrosoftLocations,
  locationNamesOf,
  matchMicrosoftLocation,
  microsoftLocationLookup,
  normalizeLocationName,
  readGoogleGeoTargets,
  readMicrosoftLocations,
} from './microsoftLocations.ts';
import { writeMicrosoftBulk } from './microsoftAdvertising.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const microsoftText = readFileSync(
  path.join(here, '../../test/fixtures/microsoft-locations/geolocations-sample.csv'),
  'utf8',
);
const googleText = readFileSync(
  path.join(here, '../../../../apps/server/test/fixtures/geo/geotargets-extract.csv'),
  'utf8',
);

function ok<T>(reading: { ok: true; value: T } | { ok: false; problem: string }): T {
  if (!reading.ok) throw new Error(reading.problem);
  return reading.value;
}

const microsoftOf = (text: string): MicrosoftLocations =>
  ok(readMicrosoftLocations(parseCsv(text)));
const googleOf = (text: string): GoogleGeoTargets => ok(readGoogleGeoTargets(parseCsv(text)));

const microsoft = microsoftOf(microsoftText);
const google = googleOf(googleText);
const match = (id: string, ms = microsoft, g = google): MicrosoftLocationAnswer =>
  matchMicrosoftLocation(g, ms, id);
const reasonOf = (answer: MicrosoftLocationAnswer): string =>
  'reason' in answer ? answer.reason : `mapped to ${answer.id}`;

/** Google criteria IDs of the extract and the Id of the fixture each must map to. */
const MAPPED: [string, string, string][] = [
  ['2276', '700001', 'Germany'],
  ['2840', '700002', 'United States'],
  ['2826', '700003', 'United Kingdom'],
  ['2654', '700004', 'a country whose name holds a comma'],
  ['20226', '700010', 'Berlin, the German state'],
  ['1003854', '700011', 'Berlin, the city'],
  ['20228', '700012', 'Baden-Wurttemberg (Microsoft writes Württemberg)'],
  ['1004615', '700013', 'Dusseldorf (Microsoft writes Düsseldorf)'],
  ['9261547', '700014', "Google's Region to Microsoft's State, a parent with a comma"],
  ['21180', '700020', 'Washington, the US state'],
  ['1027512', '700021', 'Benton City, Washington'],
  ['9001634', '700026', 'a US postal code'],
  ['1006676', '700030', 'Devon, a UK county'],
];

describe('matchMicrosoftLocation', () => {
  for (const [googleId, microsoftId, what] of MAPPED)
    it(`maps ${googleId} (${what}) to ${microsoftId}`, () => {
      expect(match(googleId)).toEqual({ id: microsoftId });
    });

  it('does not guess between two Active Microsoft locations of one name and type', () => {
    // Springfield, Illinois: 700022 and 700023 are both Active Cities.
    const answer = reasonOf(match('1016864'));
    expect(answer).toContain('Google location 1016864 (City "Springfield,Illinois,United States")');
    expect(answer).toContain('2 Active Microsoft City locations have its name (700022, 700023)');
    expect(answer).toContain('does not guess');
  });

  it('takes only Active rows, and says what status the match had', () => {
    // Washington, Illinois is in the file only as PendingDeprecation.
    expect(reasonOf(match('1016937'))).toContain('(700024) is PendingDeprecation, not Active');
  });

  it('matches the type: a name found only as another type is not taken', () => {
    // Google's Washington, New Jersey is a City; the file has the name only as a County.
    expect(reasonOf(match('1022462'))).toContain('only as County (700025), not as its type');
    // Berlin the state and Berlin the city differ by their parts, not only by their type.
    expect(match('20226')).not.toEqual(match('1003854'));
  });

  it('reports a name Microsoft does not have, and an ID Google does not have', () => {
    // Berlin, Maryland is in Google's extract, not in the Microsoft file.
    expect(reasonOf(match('1018515'))).toContain(
      'Google location 1018515 (City "Berlin,Maryland,United States"): no Microsoft location has its name',
    );
    expect(reasonOf(match('99999999'))).toContain(
      'Google location 99999999 is not in the Google geo targets file',
    );
  });

  it("maps Google's DMA Region to a MetroArea of the same name, and reports types it does not match", () => {
    const g = googleOf(
      [
        'Criteria ID,Name,Canonical Name,Parent ID,Country Code,Target Type,Status',
        '200819,Seattle-Tacoma WA,"Seattle-Tacoma WA,Washington,United States",21180,US,DMA Region,Active',
        '9073413,Seattle-Tacoma International Airport,"Seattle-Tacoma International Airport,Washington,United States",21180,US,Airport,Active',
        '1027744,Seattle,"Seattle,Washington,United States",21180,US,City,Active',
      ].join('\n'),
    );
    expect(match('200819', microsoft, g)).toEqual({ id: '700027' });
    expect(reasonOf(match('9073413', microsoft, g))).toContain(
      "Google's Airport type has no Microsoft location type Adloom matches",
    );
    // Seattle is not in the hand-made file.
    expect(reasonOf(match('1027744', microsoft, g))).toContain(
      'no Microsoft location has its name',
    );
  });

  it('reads the file with or without a BOM, with CRLF, and its columns in any order', () => {
    const lines = microsoftText.trimEnd().split('\n');
    const withBom = microsoftOf(`\uFEFF${lines.join('\r\n')}\r\n`);
    // The columns reversed, every cell written back quoted.
    const reversed = parseCsv(microsoftText)
      .filter((r) => r.length > 1)
      .map((r) =>
        [...r]
          .reverse()
          .map((c) => `"${c.replaceAll('"', '""')}"`)
          .join(','),
      )
      .join('\n');
    const reordered = microsoftOf(reversed);
    for (const ms of [withBom, reordered]) {
      expect(ms.rows).toBe(microsoft.rows);
      for (const [googleId, microsoftId] of MAPPED)
        expect(match(googleId, ms)).toEqual({ id: microsoftId });
      expect(match('1016864', ms)).toEqual(match('1016864'));
    }
    expect(microsoft.rows).toBe(lines.length - 1);
  });

  it('reads only what is asked for: the IDs of the build, the Microsoft rows of their names', () => {
    const asked = ['1003854', '1016864', '1018515', '99999999'];
    const g = ok(readGoogleGeoTargets(parseCsv(googleText), new Set(asked)));
    expect([...g.byId.keys()].sort()).toEqual(['1003854', '1016864', '1018515']);
    const names = locationNamesOf(g);
    expect(names).toEqual(
      new Set([
        'berlin|berlin|germany',
        'springfield|illinois|united states',
        'berlin|maryland|united states',
      ]),
    );
    const ms = ok(readMicrosoftLocations(parseCsv(microsoftText), names));
    expect(ms.rows).toBe(microsoft.rows);
    expect([...ms.byName.keys()].sort()).toEqual([
      'berlin|berlin|germany',
      'springfield|illinois|united states',
    ]);
    for (const id of asked) expect(match(id, ms, g)).toEqual(match(id));
  });

  it('says why a file is not the one asked for', () => {
    expect(readMicrosoftLocations(parseCsv(googleText.slice(0, 500)))).toEqual({
      ok: false,
      problem:
        "is not Microsoft's geographical locations file (format version 2.0): no Location Id, Bing Display Name, Location Type column",
    });
    expect(readGoogleGeoTargets(parseCsv(microsoftText))).toEqual({
      ok: false,
      problem:
        "is not Google's geo targets file: no Criteria ID, Canonical Name, Target Type column",
    });
    expect(readMicrosoftLocations([])).toEqual({ ok: false, problem: 'is empty' });
  });
});

describe('normalizeLocationName', () => {
  it('ignores case, accents and punctuation', () => {
    expect(normalizeLocationName('Baden-Württemberg')).toBe(
      normalizeLocationName('baden wurttemberg'),
    );
    expect(normalizeLocationName('  São Paulo ')).toBe('sao paulo');
    expect(normalizeLocationName('Straße')).toBe('strasse');
    expect(normalizeLocationName('Øresund')).toBe('oresund');
    expect(normalizeLocationName("St. John's")).toBe('st john s');
    expect(normalizeLocationName('Berlin')).not.toBe(normalizeLocationName('Berlín Nord'));
  });
});

describe('microsoftLocationLookup with the Microsoft format', () => {
  it('writes mapped locations as Campaign Location Criterion records and reports the rest with the reason', () => {
    const lookup = microsoftLocationLookup(google, microsoft);
    const campaigns = {
      headers: ['Campaign', 'Campaign Type', 'Budget', 'Location ID'],
      rows: [
        ['Berlin', 'Search', '10', ''],
        ['Berlin', '', '', '1003854'],
        ['Springfield', 'Search', '10', ''],
        ['Springfield', '', '', '1016864'],
        ['Both', 'Search', '10', ''],
        ['Both', '', '', '2276;1018515'],
      ],
    };
    const bulk = writeMicrosoftBulk([{ kind: 'campaigns', read: () => campaigns }], {
      microsoftLocationId: lookup.microsoftLocationId,
    });
    const text = [...bulk.chunks()].join('');
    const records = parseCsv(text).filter((r) => r.length > 1);
    const header = records[0]!;
    const col = (name: string) => header.indexOf(name);
    const rows = records
      .slice(1)
      .map((r) => [r[col('Type')], r[col('Campaign')], r[col('Status')], r[col('Target')]]);
    expect(rows).toEqual([
      ['Format Version', '', '', ''],
      ['Campaign', 'Berlin', 'Active', ''],
      ['Campaign Location Criterion', 'Berlin', 'Active', '700011'],
      ['Campaign', 'Springfield', 'Paused', ''],
      ['Campaign', 'Both', 'Active', ''],
      ['Campaign Location Criterion', 'Both', 'Active', '700001'],
    ]);
    const report = [...bulk.report().rows].map((r) => [r[0], r[1], r[3], r[4], r[5]]);
    expect(report).toEqual([
      [
        'Campaign Location Criterion',
        'Springfield',
        '1016864',
        'Not written',
        reasonOf(match('1016864')),
      ],
      [
        'Campaign',
        'Springfield',
        'Springfield',
        'Paused',
        expect.stringContaining('none of its locations'),
      ],
      ['Campaign Location Criterion', 'Both', '1018515', 'Not written', reasonOf(match('1018515'))],
    ]);
    expect(lookup.counts()).toEqual({ mapped: 2, notMapped: 2 });
  });
});
