import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GeoFileError,
  geoSourceDate,
  parseCsv,
  parseGeoCsv,
  readGeoSource,
  releaseDateInName,
  toCopyCsv,
  type GeoFileRow,
} from '../src/services/geo-file.ts';
import { EXTRACT_ROWS, EXTRACT_ROWS_PER_TYPE, geoFixtureFile } from './geo-data.ts';

const HEADER = 'Criteria ID,Name,Canonical Name,Parent ID,Country Code,Target Type,Status';
const encode = (text: string) => new TextEncoder().encode(text);

describe("Google's raw sample (25 rows in its exact quoting)", () => {
  const rows = parseGeoCsv(readFileSync(geoFixtureFile('geotargets-raw-sample.csv')), 'sample');

  it('reads every row and every field', () => {
    expect(rows).toHaveLength(25);
    expect(rows[0]).toEqual({
      criteriaId: 1000002,
      name: 'Kabul',
      canonicalName: 'Kabul,Kabul,Afghanistan',
      parentId: 9075393,
      countryCode: 'AF',
      targetType: 'City',
      status: 'Active',
    });
    expect(rows.find((row) => row.criteriaId === 1000138)).toEqual({
      criteriaId: 1000138,
      name: "Saint John's",
      canonicalName: "Saint John's,Saint John,Antigua and Barbuda",
      parentId: 9075418,
      countryCode: 'AG',
      targetType: 'City',
      status: 'Active',
    });
    expect(rows.find((row) => row.criteriaId === 1000031)?.canonicalName).toBe(
      'Del Viso,Pilar,Buenos Aires Province,Argentina',
    );
  });

  it('keeps the two targets Google marks Removal Planned, with their parents', () => {
    expect(rows.filter((row) => row.status === 'Removal Planned')).toEqual([
      {
        criteriaId: 9129407,
        name: "New York's 25th Congressional District 2022 redistricting",
        canonicalName:
          "New York's 25th Congressional District 2022 redistricting,New York,United States",
        parentId: 21167,
        countryCode: 'US',
        targetType: 'Congressional District',
        status: 'Removal Planned',
      },
      expect.objectContaining({ criteriaId: 9129408, parentId: 21167 }),
    ]);
    expect(rows.filter((row) => row.status === 'Active')).toHaveLength(23);
  });

  it('reads every parent ID as a number, in file order', () => {
    expect(rows.map((row) => row.parentId)).toEqual([
      9075393, 9070431, 2660, 9075436, 9198321, 2531, 9041082, 9047096, 9041082, 9041083, 9047098,
      20008, 20009, 20009, 20009, 20010, 9075418, 20034, 20035, 20035, 20037, 20038, 20040, 21167,
      21167,
    ]);
  });
});

describe('the extract of the subset', () => {
  it('reads every row with quoted header, empty parents as null and blank statuses', () => {
    const rows = parseGeoCsv(readFileSync(geoFixtureFile('geotargets-extract.csv')), 'extract');
    expect(rows).toHaveLength(EXTRACT_ROWS);
    const perType = new Map<string, number>();
    for (const row of rows) perType.set(row.targetType, (perType.get(row.targetType) ?? 0) + 1);
    expect(Object.fromEntries(perType)).toEqual(EXTRACT_ROWS_PER_TYPE);
    expect(rows.find((row) => row.criteriaId === 2004)).toEqual({
      criteriaId: 2004,
      name: 'Afghanistan',
      canonicalName: 'Afghanistan',
      parentId: null,
      countryCode: 'AF',
      targetType: 'Country',
      status: '',
    });
  });
});

describe('a file that is not Google’s geo targets CSV', () => {
  it.each([
    ['another CSV', 'id,name\n1,a\n', /is not Google's geo targets CSV: its first line must name/],
    ['an empty file', '', /is empty/],
    ['a header alone', `${HEADER}\n`, /holds no geo targets/],
    ['a short row', `${HEADER}\n"1","A","A","","DE","City"\n`, /line 2: 6 values/],
    ['a text criteria ID', `${HEADER}\n"x1","A","A","","DE","City",""\n`, /line 2: Criteria ID/],
    ['a text parent ID', `${HEADER}\n"1","A","A","p","DE","City",""\n`, /line 2: Parent ID/],
    [
      'a criteria ID twice',
      `${HEADER}\n"1","A","A","","DE","City",""\n"1","B","B","","DE","City",""\n`,
      /line 3: criteria ID 1 appears twice/,
    ],
    ['an unclosed quote', `${HEADER}\n"1","A,A\n`, /line 2: a quoted value is never closed/],
    ['text after a quote', `${HEADER}\n"1","A"x,"A","","DE","City",""\n`, /line 2: a quoted value/],
  ])('refuses %s with a message saying why', (_what, text, message) => {
    expect(() => parseGeoCsv(encode(text), 'file.csv')).toThrow(message);
    expect(() => parseGeoCsv(encode(text), 'file.csv')).toThrow(GeoFileError);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => parseGeoCsv(new Uint8Array([0xff, 0xfe, 0x41]), 'file.csv')).toThrow(
      /is not UTF-8 text/,
    );
  });
});

describe('the header line and line endings', () => {
  it.each([
    ['unquoted', HEADER],
    [
      'quoted',
      HEADER.split(',')
        .map((name) => `"${name}"`)
        .join(','),
    ],
    ['after a BOM', `\uFEFF${HEADER}`],
  ])('takes a header %s, CRLF endings and a quoted line break', (_what, header) => {
    const rows = parseGeoCsv(
      encode(
        `${header}\r\n"7","Say ""hi""","A,\nB","","DE","City",Active\r\n\r\n"8","C","C","7","DE","City",""`,
      ),
      'file.csv',
    );
    expect(rows).toEqual([
      {
        criteriaId: 7,
        name: 'Say "hi"',
        canonicalName: 'A,\nB',
        parentId: null,
        countryCode: 'DE',
        targetType: 'City',
        status: 'Active',
      },
      {
        criteriaId: 8,
        name: 'C',
        canonicalName: 'C',
        parentId: 7,
        countryCode: 'DE',
        targetType: 'City',
        status: '',
      },
    ]);
  });

  it('numbers lines across quoted line breaks', () => {
    const lines: number[] = [];
    parseCsv('a,"x\ny"\nb,c\n', (_fields, line) => lines.push(line));
    expect(lines).toEqual([1, 3]);
  });
});

describe('the CSV copied into the database', () => {
  it('quotes every text, doubles quotes, leaves a missing parent empty and adds the lowered name', () => {
    const row: GeoFileRow = {
      criteriaId: 1,
      name: 'Say "hi"',
      canonicalName: 'Örebro,Île-de-France,İzmir',
      parentId: null,
      countryCode: 'SE',
      targetType: 'City',
      status: '',
    };
    expect(new TextDecoder().decode(toCopyCsv([row, { ...row, criteriaId: 2, parentId: 1 }]))).toBe(
      '1,"Say ""hi""","Örebro,Île-de-France,İzmir",,"SE","City","","örebro,île-de-france,i̇zmir"\n' +
        '2,"Say ""hi""","Örebro,Île-de-France,İzmir",1,"SE","City","","örebro,île-de-france,i̇zmir"\n',
    );
  });
});

describe('where a file comes from', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adloom-geo-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sample = readFileSync(geoFixtureFile('geotargets-raw-sample.csv'));

  it('takes the release date from the name, else from the file date', async () => {
    expect(releaseDateInName('geotargets-2024-08-13.csv.zip')).toBe('2024-08-13');
    expect(releaseDateInName('geotargets-2024-02-31.csv')).toBeUndefined();
    expect(releaseDateInName('targets.csv')).toBeUndefined();
    const named = join(dir, 'geotargets-2026-10-06.csv');
    const plain = join(dir, 'plain.csv');
    writeFileSync(named, sample);
    writeFileSync(plain, sample);
    utimesSync(plain, new Date('2025-03-04T12:00:00Z'), new Date('2025-03-04T12:00:00Z'));
    expect(await geoSourceDate(named)).toBe('2026-10-06');
    expect(await geoSourceDate(plain)).toBe('2025-03-04');
    expect(await readGeoSource(plain)).toMatchObject({ name: 'plain.csv', date: '2025-03-04' });
    expect(await geoSourceDate('https://example.com/geo/geotargets-2026-10-06.csv.zip')).toBe(
      '2026-10-06',
    );
    expect(await geoSourceDate('https://example.com/geo/latest.zip')).toBeUndefined();
  });

  it('unzips the one CSV of a zip, dated by the zip or the entry name', async () => {
    const zip = join(dir, 'download.zip');
    writeFileSync(
      zip,
      zipSync({ 'geotargets-2024-08-13.csv': sample, 'README.txt': encode('hi') }),
    );
    const read = await readGeoSource(zip);
    expect(read.name).toBe('download.zip');
    expect(read.date).toBe('2024-08-13');
    expect(Buffer.from(read.csv).equals(sample)).toBe(true);
  });

  it('refuses a zip without exactly one CSV, a missing file and a folder', async () => {
    const two = join(dir, 'two.zip');
    writeFileSync(two, zipSync({ 'a.csv': sample, 'b.csv': sample }));
    await expect(readGeoSource(two)).rejects.toThrow(/must hold exactly one \.csv file.*holds 2/);
    const none = join(dir, 'none.zip');
    writeFileSync(none, zipSync({ 'a.txt': sample }));
    await expect(readGeoSource(none)).rejects.toThrow(/holds 0/);
    await expect(readGeoSource(join(dir, 'missing.csv'))).rejects.toThrow(/does not exist/);
    await expect(readGeoSource(dir)).rejects.toThrow(/is not a file/);
  });
});
