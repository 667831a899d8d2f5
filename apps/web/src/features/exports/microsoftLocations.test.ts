import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { campaignsTable, forEachCsvRecord } from '@adloom/engine';
import { packTable } from '../generation/packTable.ts';
import { testJobContext } from '../generation/testing/jobContext.ts';
import { microsoftLocationsNotice } from './downloads.ts';
import {
  exportFilesJob,
  microsoftLocationIdsJob,
  type ExportFilesInput,
  type ExportFilesOutput,
  type MicrosoftLocationsInput,
} from './exportJobs.ts';
import { MICROSOFT_FORMAT_ID } from './formats.ts';
import { microsoftLocationsFileProblem } from './microsoftLocationsStore.ts';

// Microsoft's locations file in a Microsoft download: the committed sample (made-up Ids in
// Microsoft's layout) and Google's targets as POST /api/geo/targets gives them.

// The web suite runs in apps/web (as pageState.test.ts reads its sources).
const SAMPLE = readFileSync(
  join(
    process.cwd(),
    '../../packages/engine/test/fixtures/microsoft-locations/geolocations-sample.csv',
  ),
);
const sampleFile = () => new Blob([SAMPLE], { type: 'text/csv' });

const TARGETS: MicrosoftLocationsInput['targets'] = [
  { criteriaId: '2840', canonicalName: 'United States', targetType: 'Country' },
  { criteriaId: '20226', canonicalName: 'Berlin,Germany', targetType: 'State' },
  {
    criteriaId: '1016864',
    canonicalName: 'Springfield,Illinois,United States',
    targetType: 'City',
  },
];

const CAMPAIGNS = campaignsTable([
  {
    campaign: 'US',
    campaignType: 'Search',
    budget: 20,
    locationId: '2840',
    settings: {},
    rowId: '',
  },
  {
    campaign: 'Mixed',
    campaignType: 'Search',
    budget: 5,
    locationId: '20226;1016864;999',
    settings: {},
    rowId: '',
  },
  {
    campaign: 'Nowhere known',
    campaignType: 'Search',
    budget: 5,
    locationId: '999',
    settings: {},
    rowId: '',
  },
]);

const input = (microsoftLocations?: MicrosoftLocationsInput): ExportFilesInput => ({
  format: MICROSOFT_FORMAT_ID,
  tables: [{ kind: 'campaigns', source: { packed: packTable(CAMPAIGNS) } }],
  naming: null,
  zip: true,
  ...(microsoftLocations ? { microsoftLocations } : {}),
});

/** A CSV entry of the zip as records under its header. */
function records(bytes: Uint8Array | undefined): Record<string, string>[] {
  const rows: string[][] = [];
  forEachCsvRecord(new TextDecoder().decode(bytes), (cells) => {
    rows.push(cells);
  });
  const [header, ...rest] = rows;
  return rest.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i] ?? ''])));
}

async function download(given: ExportFilesInput) {
  const output = (await exportFilesJob(given, testJobContext([]))) as ExportFilesOutput;
  const entries = unzipSync(new Uint8Array(await output.blob.arrayBuffer()));
  return {
    output,
    bulk: records(entries['microsoft advertising.csv']),
    report: records(entries['microsoft advertising report.csv']),
  };
}

describe("a Microsoft download with Microsoft's locations file", () => {
  it("reads the build's distinct Google location IDs where the tables are", () => {
    expect(microsoftLocationIdsJob(input(), testJobContext([]))).toEqual({
      ids: ['2840', '20226', '1016864', '999'],
    });
  });

  it('writes the mapped locations as Campaign Location Criterion records, the rest reported', async () => {
    const { output, bulk, report } = await download(
      input({ file: sampleFile(), targets: TARGETS }),
    );
    expect(
      bulk
        .filter((r) => r.Type!.startsWith('Campaign'))
        .map((r) => [r.Type, r.Campaign, r.Status, r.Target]),
    ).toEqual([
      ['Campaign', 'US', 'Active', ''],
      ['Campaign Location Criterion', 'US', 'Active', '700002'],
      ['Campaign', 'Mixed', 'Active', ''],
      ['Campaign Location Criterion', 'Mixed', 'Active', '700010'],
      ['Campaign', 'Nowhere known', 'Paused', ''],
    ]);
    expect(report.map((r) => [r.Campaign, r.Item, r.Outcome])).toEqual([
      ['Mixed', '1016864', 'Not written'],
      ['Mixed', '999', 'Not written'],
      ['Nowhere known', '999', 'Not written'],
      ['Nowhere known', 'Nowhere known', 'Paused'],
    ]);
    // Why: two Active Springfields; 999 is no Google target the server knows.
    expect(report[0]!.Reason).toContain('2 Active Microsoft City locations have its name');
    expect(report[1]!.Reason).toContain('is not in the Google geo targets file');
    // Distinct Google locations: 2840 and 20226 mapped; 1016864 and 999 not.
    expect(output.locations).toEqual({ mapped: 2, notMapped: 2 });
  });

  it('without the file, as before: every location reported, every campaign paused', async () => {
    const { output, bulk } = await download(input());
    expect(output.locations).toBeUndefined();
    expect(bulk.filter((r) => r.Type === 'Campaign Location Criterion')).toEqual([]);
    expect(bulk.filter((r) => r.Type === 'Campaign').map((r) => r.Status)).toEqual([
      'Paused',
      'Paused',
      'Paused',
    ]);
  });

  it("refuses a file that is not Microsoft's, saying which columns it lacks", async () => {
    const wrong = new Blob(['Criteria ID,Name\n2840,United States\n']);
    await expect(download(input({ file: wrong, targets: TARGETS }))).rejects.toThrow(
      "Microsoft's locations file is not Microsoft's geographical locations file (format version 2.0): no Location Id, Bing Display Name, Location Type, Status column",
    );
    expect(await microsoftLocationsFileProblem(wrong)).toBe(
      "This file is not Microsoft's geographical locations file (format version 2.0): no Location Id, Bing Display Name, Location Type, Status column.",
    );
    expect(await microsoftLocationsFileProblem(new Blob([]))).toBe('This file is empty.');
    expect(await microsoftLocationsFileProblem(sampleFile())).toBeUndefined();
  });
});

describe('microsoftLocationsNotice', () => {
  const naming = { client: 'Acme', date: '20261207' };

  it('says how many were mapped, and where the reasons of the others are', () => {
    expect(microsoftLocationsNotice({ mapped: 2, notMapped: 0 }, naming)).toEqual({
      type: 'success',
      message: 'Microsoft Advertising: 2 of 2 Google locations mapped to Microsoft Location Ids.',
    });
    expect(microsoftLocationsNotice({ mapped: 1, notMapped: 2 }, naming)).toEqual({
      type: 'warning',
      message:
        'Microsoft Advertising: 1 of 3 Google locations mapped to Microsoft Location Ids; 2 not, and campaigns left without a location are paused: the reasons are in Acme - microsoft advertising report - 20261207.csv.',
    });
    expect(microsoftLocationsNotice({ mapped: 0, notMapped: 1 }, null, false)?.message).toBe(
      "Microsoft Advertising: 0 of 1 Google location mapped to Microsoft Location Ids; 1 not, and campaigns left without a location are paused: the reasons are in microsoft advertising report.csv. This server has no Google geo targets loaded, so no location's name was known.",
    );
    expect(microsoftLocationsNotice({ mapped: 0, notMapped: 0 }, naming)).toBeUndefined();
  });
});
