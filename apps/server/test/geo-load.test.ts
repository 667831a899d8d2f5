import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, GEO_MESSAGES, type GeoParamsInput } from '@adloom/contract';
import { GeoFileError, parseGeoCsv } from '../src/services/geo-file.ts';
import {
  NO_TRIGRAM_WARNING,
  loadGeoTargets,
  loadGeoTargetsOnStart,
  type GeoLog,
} from '../src/services/geo.ts';
import { EXTRACT_ROWS, geoFixtureFile } from './geo-data.ts';
import { startTestApp, testDbKind, type TestApp } from './helpers.ts';

const HEADER = 'Criteria ID,Name,Canonical Name,Parent ID,Country Code,Target Type,Status';
const SAMPLE = readFileSync(geoFixtureFile('geotargets-raw-sample.csv'));
const SUBSET = geoFixtureFile('geotargets-extract.csv');
const AU_CITIES = { targetType: 'City', countryCode: 'AU' } as const;

/** A log that keeps its lines. */
function collectingLog(): GeoLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info: ${message}`),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
}

describe(`loading geo targets (${testDbKind()})`, () => {
  let t: TestApp;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'adloom-geo-load-'));
  const sampleZip = join(dir, 'geotargets-2024-08-13.csv.zip');
  let web: Server;
  let webUrl: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    writeFileSync(sampleZip, zipSync({ 'geotargets-2024-08-13.csv': SAMPLE }));
    web = createServer((request, response) => {
      if (request.url === '/geo/geotargets-2024-09-01.csv.zip')
        response.end(readFileSync(sampleZip));
      else if (request.url === '/geo/latest.zip')
        response
          .writeHead(200, { 'last-modified': 'Tue, 01 Oct 2024 00:00:00 GMT' })
          .end(readFileSync(sampleZip));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const address = web.address();
    webUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => web.close(resolve));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (params: GeoParamsInput, limit = 20) =>
    t.request('POST', API.geoSearch, { token, body: { params, limit } });
  const status = async () => (await t.request('GET', API.geoStatus, { token })).body;
  const tableCount = async () =>
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where tablename like 'geo_targets%'`,
      )
    )[0]?.n;

  it('with nothing loaded: status says so, and the geo calls are 409 with the operator message', async () => {
    expect(await status()).toEqual({ release: null });
    const searches = [
      { targetType: 'Country' },
      // No target can match (a comma in the name filter): still 409, not an empty answer.
      { targetType: 'City', countryCode: 'DE', canonicalName: 'Berlin,Germany' },
    ];
    for (const [path, params] of [API.geo, API.geoSearch].flatMap((p) =>
      searches.map((s) => [p, s] as const),
    )) {
      const response = await t.request('POST', path, { token, body: { params } });
      expect(response.status).toBe(409);
      expect(response.body.error).toEqual({
        code: 'geo_not_loaded',
        message: GEO_MESSAGES.notLoaded,
      });
    }
    // The lookup of criteria IDs too: nothing loaded is not "none of them found".
    const lookup = await t.request('POST', API.geoTargets, { token, body: { ids: ['2840'] } });
    expect([lookup.status, lookup.body.error.code]).toEqual([409, 'geo_not_loaded']);
  });

  it("loads Google's zip, dated by its name, with the Removal Planned targets flagged", async () => {
    const result = await loadGeoTargets(t.db, sampleZip);
    expect(result.release).toMatchObject({
      date: '2024-08-13',
      source: 'geotargets-2024-08-13.csv.zip',
      rows: 25,
    });
    expect(await status()).toEqual({ release: result.release });
    const districts = await search({ targetType: 'Congressional District', countryCode: 'US' });
    expect(districts.body).toMatchObject({ count: 2, removalPlanned: 2 });
    expect(districts.body.targets.map((target: { status: string }) => target.status)).toEqual([
      'Removal Planned',
      'Removal Planned',
    ]);
    const cities = await search(AU_CITIES);
    expect(cities.body.targets.map((target: { criteriaId: number }) => target.criteriaId)).toEqual([
      1000142, 1000236, 1000286, 1000339, 1000438, 1000567,
    ]);
    expect(cities.body.targets[0]).toMatchObject({ parentId: 20034, status: 'Active' });
  });

  it('filters names with capitals beyond ASCII as JavaScript lowers them', async () => {
    const file = join(dir, 'geotargets-2024-08-14.csv');
    writeFileSync(
      file,
      [
        HEADER,
        '"1","Örebro","Örebro,Örebro County,Sweden","","SE","City",Active',
        '"2","Paris","Paris,Île-de-France,France","","FR","City",Active',
        '"3","ÉVRY","ÉVRY,ÎLE-DE-FRANCE,France","","FR","City",Active',
        '"4","Lyon","Lyon,Auvergne-Rhone-Alpes,France","","FR","City",Active',
      ].join('\n'),
    );
    await loadGeoTargets(t.db, file);
    const ids = async (params: GeoParamsInput) =>
      (await search(params)).body.targets.map(
        (target: { criteriaId: number }) => target.criteriaId,
      );
    expect(await ids({ targetType: 'City', countryCode: 'SE', canonicalName: 'örebro' })).toEqual([
      1,
    ]);
    expect(await ids({ targetType: 'City', countryCode: 'SE', canonicalName: 'ÖREBRO C' })).toEqual(
      [1],
    );
    expect(await ids({ targetType: 'City', countryCode: 'FR', canonicalName: 'île' })).toEqual([
      2, 3,
    ]);
    expect(await ids({ targetType: 'City', countryCode: 'FR', canonicalName: 'évry' })).toEqual([
      3,
    ]);
  });

  it('downloads a zip from an http(s) address, dated by its name', async () => {
    const result = await loadGeoTargets(t.db, `${webUrl}/geo/geotargets-2024-09-01.csv.zip`);
    expect(result.release).toMatchObject({
      date: '2024-09-01',
      source: 'geotargets-2024-09-01.csv.zip',
      rows: 25,
    });
    await expect(loadGeoTargets(t.db, `${webUrl}/geo/missing.zip`)).rejects.toThrow(
      /could not download .*missing\.zip: HTTP 404/,
    );
  });

  it('replaces a release atomically: a search during the load sees the old rows or the new, never none', async () => {
    await loadGeoTargets(t.db, sampleZip);
    const newCount = parseGeoCsv(readFileSync(SUBSET), 'subset').filter(
      (row) => row.targetType === 'City' && row.countryCode === 'AU',
    ).length;
    let isDone = false;
    const loading = loadGeoTargets(t.db, SUBSET).finally(() => {
      isDone = true;
    });
    const counts: number[] = [];
    while (!isDone) {
      const response = await search(AU_CITIES, 0);
      expect(response.status).toBe(200);
      counts.push(response.body.count);
    }
    const result = await loading;
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((count) => count !== 6 && count !== newCount)).toEqual([]);
    expect((await search(AU_CITIES, 0)).body.count).toBe(newCount);
    expect(result.release).toMatchObject({ source: 'geotargets-extract.csv', rows: EXTRACT_ROWS });
    expect((await status()).release).toEqual(result.release);
    expect(await tableCount()).toBe(1);
  });

  it('refuses a file that is not Google’s with a clear error and keeps the loaded release', async () => {
    await loadGeoTargets(t.db, sampleZip);
    const before = await status();
    const other = join(dir, 'geotargets-2030-01-01.csv');
    writeFileSync(other, 'Name,Value\nBerlin,1\n');
    const error = await loadGeoTargets(t.db, other).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeoFileError);
    expect((error as Error).message).toMatch(
      /^geotargets-2030-01-01\.csv is not Google's geo targets CSV: its first line must name the columns Criteria ID, Name, Canonical Name, Parent ID, Country Code, Target Type, Status \(found "Name,Value"\)$/,
    );
    expect(await status()).toEqual(before);
    expect((await search(AU_CITIES, 0)).body.count).toBe(6);
  });

  it('a load the database refuses leaves the old rows, the old release and no fresh table behind', async () => {
    const before = await status();
    const file = join(dir, 'geotargets-2030-01-02.csv');
    // PostgreSQL text cannot hold NUL: the rows pass the file checks, then COPY fails.
    writeFileSync(file, `${HEADER}\n"1","Nul\u0000Town","Nul,Germany","","DE","City",Active\n`);
    await expect(loadGeoTargets(t.db, file)).rejects.toThrow(
      /^query "copy geo_targets_\w+" failed \(SQLSTATE \w{5}\)/,
    );
    expect(await status()).toEqual(before);
    expect((await search(AU_CITIES, 0)).body.count).toBe(6);
    expect(await tableCount()).toBe(1);
    // The database is still usable for the next load.
    expect((await loadGeoTargets(t.db, sampleZip)).release.rows).toBe(25);
  });

  it('GEO_TARGETS_FILE at start-up loads a newer release only, and a failure keeps the old one', async () => {
    await loadGeoTargets(t.db, sampleZip);
    const log = collectingLog();
    const newer = join(dir, 'geotargets-2024-10-01.csv');
    copyFileSync(geoFixtureFile('geotargets-raw-sample.csv'), newer);
    expect(await loadGeoTargetsOnStart(t.db, sampleZip, log)).toBe('skipped');
    expect(await loadGeoTargetsOnStart(t.db, newer, log)).toBe('loaded');
    expect((await status()).release).toMatchObject({ date: '2024-10-01', rows: 25 });
    expect(await loadGeoTargetsOnStart(t.db, newer, log)).toBe('skipped');
    const undated = join(dir, 'targets.csv');
    copyFileSync(geoFixtureFile('geotargets-raw-sample.csv'), undated);
    utimesSync(undated, new Date('2024-09-15T00:00:00Z'), new Date('2024-09-15T00:00:00Z'));
    expect(await loadGeoTargetsOnStart(t.db, undated, log)).toBe('skipped');
    const missing = join(dir, 'geotargets-2031-01-01.csv');
    expect(await loadGeoTargetsOnStart(t.db, missing, log)).toBe('failed');
    expect((await status()).release).toMatchObject({ date: '2024-10-01' });
    expect(log.lines).toEqual([
      expect.stringMatching(
        /^info: GEO_TARGETS_FILE: .*geotargets-2024-08-13\.csv\.zip has not changed since it was loaded/,
      ),
      expect.stringMatching(
        /^info: GEO_TARGETS_FILE: Loaded Google's geo targets of 2024-10-01 from geotargets-2024-10-01\.csv: 25 rows in [\d.]+ s$/,
      ),
      expect.stringMatching(
        /^info: GEO_TARGETS_FILE: .*2024-10-01\.csv has not changed since it was loaded/,
      ),
      expect.stringMatching(
        /^info: .*2024-10-01 are loaded; .*targets\.csv \(2024-09-15\) is not newer/,
      ),
      `error: GEO_TARGETS_FILE: could not load ${missing}: ${missing} does not exist. The geo targets loaded before (if any) stay.`,
    ]);
  });
  it('GEO_TARGETS_FILE at start-up does not load a file or address again that has not changed since, dated in its name or not', async () => {
    const log = collectingLog();
    const zip = join(dir, 'targets.zip');
    writeFileSync(zip, zipSync({ 'geotargets-2024-11-01.csv': SAMPLE }));
    const past = new Date(Date.now() - 60_000);
    utimesSync(zip, past, past);
    expect(await loadGeoTargetsOnStart(t.db, zip, log)).toBe('loaded');
    expect(await loadGeoTargetsOnStart(t.db, zip, log)).toBe('skipped');
    // Changed after the load: loaded again.
    const later = new Date(Date.now() + 60_000);
    utimesSync(zip, later, later);
    expect(await loadGeoTargetsOnStart(t.db, zip, log)).toBe('loaded');
    // An address says when it changed in its Last-Modified (asked with HEAD).
    const url = `${webUrl}/geo/latest.zip`;
    expect(await loadGeoTargetsOnStart(t.db, url, log)).toBe('loaded');
    expect(await loadGeoTargetsOnStart(t.db, url, log)).toBe('skipped');
    expect((await status()).release).toMatchObject({ source: 'latest.zip', date: '2024-08-13' });
    expect(log.lines.filter((line) => line.includes('has not changed since'))).toHaveLength(2);
  });

  it('without pg_trgm: loads without the trigram index, says so, and searches the same', async () => {
    await t.db.exec('drop extension pg_trgm cascade');
    try {
      const log = collectingLog();
      const file = join(dir, 'geotargets-2024-11-01.csv');
      copyFileSync(geoFixtureFile('geotargets-raw-sample.csv'), file);
      expect(await loadGeoTargetsOnStart(t.db, file, log)).toBe('loaded');
      expect(log.lines.at(-1)).toBe(`warn: ${NO_TRIGRAM_WARNING}`);
      const indexes = await t.db.query<{ indexdef: string }>(
        `select indexdef from pg_indexes where tablename = 'geo_targets'`,
      );
      expect(indexes.length).toBe(4);
      expect(indexes.filter((index) => /gin/i.test(index.indexdef))).toEqual([]);
      const found = await search({ targetType: 'City', countryCode: 'AU', canonicalName: 'WALES' });
      expect(found.body.targets.map((target: { name: string }) => target.name)).toEqual([
        'Maitland',
        'Sydney',
      ]);
    } finally {
      await t.db.exec('create extension pg_trgm');
    }
  });
});
