/**
 * The responsive search ads of `adloom generate` on a thread of their own, beside the keyword
 * step: on a machine with two cores the run takes about the time of the longer of the two, not
 * their sum. The feed's packed rows are shared, not copied (SharedArrayBuffers); the ad groups
 * go over as the keyword step makes them, in batches; the ads' thread writes the RSA file through
 * its own descriptor and its reported items into a scratch part that the main thread appends to
 * the report after the keyword step's items, so every output is byte for byte what one thread
 * writes.
 */
import { readSync } from 'node:fs';
import {
  MessageChannel,
  parentPort,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import {
  generateSearchAds,
  responsiveSearchAdCells,
  GroupKeyMaker,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreRsaTemplate,
  type AdGroupRef,
  type AdGroupTarget,
  type FeedRows,
  type RowGroupKeys,
} from '@adloom/engine';
import { CampaignNumbers, PackedAdGroups, rowNumberOf } from './adGroups.ts';
import { PackedFeedRows, type SharedFeedRows } from './feed.ts';
import { OutputSink } from './files.ts';
import { RecordPartWriter, type RecordPartCounts } from './recordStream.ts';
import { IssueReport, type ReportTallies } from './report.ts';

/**
 * Ad groups per message: few enough messages. The first messages are smaller (16, 32, ... up to
 * this): the keyword step's first rows run before its code is compiled, and the ads' thread starts
 * on the first groups instead of waiting for 512 of them.
 */
const BATCH_GROUPS = 512;
const FIRST_BATCH_GROUPS = 16;

/** Slots of the shared state (an Int32Array). */
const POSTED = 0;
const ADS_WRITTEN = 1;
const LAST_AD_ROW = 2;
/** The look-ahead's keys (`AdsJob.groupKeys`): the next chunk of rows to take, rows keyed. */
const KEYS_NEXT_CHUNK = 3;
const KEYS_ROWS_DONE = 4;
/** 1 once the thread failed while keying. */
const KEYS_FAILED = 5;
const STATE_SLOTS = 6;

/**
 * Rows keyed at a time (a few milliseconds' work): each thread takes the next chunk until none is
 * left, so a thread that starts late or keys slower takes fewer, and the last chunk is all the
 * other thread may wait for.
 */
const KEY_CHUNK_ROWS = 2048;

/** Atomics.waitAsync (ES2024, in Node since 16; this project's library is ES2022). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      a: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/** What the ads' thread is given once the inputs are read and checked. */
export interface AdsJob {
  feed: SharedFeedRows;
  /** The RSA and legacy templates as checked JSON (restored on the thread). */
  rsa: unknown;
  legacy: unknown;
  today: string;
  constant: string;
  /** The RSA file's descriptor, its BOM and header written (undefined: ads counted, not written). */
  rsaFd: number | undefined;
  /** The scratch file for the report's part (undefined: the report is not written). */
  reportFd: number | undefined;
  /**
   * The scratch file for the ads' part of the build record, the client label and the RSA file's
   * columns (the format's: `ExportStreamFile.headers`) (undefined: no record). Given, each ad is
   * written from its cells, which make its item.
   */
  record?: { fd: number; label: string; headers: readonly string[] };
  /**
   * Rows to key for the keyword step's look-ahead first (`GroupKeyMaker`), with the campaign
   * template as checked JSON: both threads key them, a chunk at a time (`AdsThread.keyRows`).
   */
  groupKeys?: { campaign: unknown; out: RowGroupKeys };
}

/** The ads' thread's answer. */
interface AdsDone {
  ads: number;
  tallies: ReportTallies;
  /** What the record's part holds. */
  record?: RecordPartCounts;
}

/**
 * A batch of ad groups, in few objects (a message of one string and a few typed arrays is
 * copied at once; one of arrays of strings is copied string by string): the campaign names new
 * since the batch before, then per group its campaign's number, where its name ends in `names`
 * (the names joined) and its row's id as a number (`otherIds`: ids that are not one, by group).
 */
interface GroupBatch {
  campaigns: string[];
  count: number;
  campaignOf: Int32Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;
  names: string;
  ids: Int32Array<ArrayBuffer>;
  otherIds: Map<number, string> | undefined;
  last: boolean;
}

/** The main thread's side: starts the thread, hands it the job and the groups, awaits its end. */
export class AdsThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly theirPort: MessagePort;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * STATE_SLOTS));
  private readonly done: Promise<AdsDone>;
  private readonly campaigns = new CampaignNumbers();
  /** Campaign names sent so far (each goes once, with the first batch that uses it). */
  private campaignsSent = 0;
  private batch: GroupBatch = emptyBatch();
  /** Groups in the batch being filled (doubling from FIRST_BATCH_GROUPS to BATCH_GROUPS). */
  private batchSize = FIRST_BATCH_GROUPS;

  /**
   * Starts the thread from `script` (the compiled command, which runs `runAdsThread` when it is
   * not the main thread); it loads while the main thread reads the feed.
   */
  constructor(script: URL) {
    this.worker = new Worker(script);
    // Until it has a job the thread keeps no run alive: a run that fails on its inputs just ends.
    this.worker.unref();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.theirPort = port2;
    this.done = new Promise<AdsDone>((resolve, reject) => {
      this.worker.once('message', (m: { done?: AdsDone; error?: string }) => {
        if (m.done) resolve(m.done);
        else reject(new Error(`The ads' thread failed: ${m.error ?? 'no answer'}`));
      });
      this.worker.once('error', reject);
      this.worker.once('exit', (code) =>
        reject(new Error(`The ads' thread stopped (exit code ${code}) before its answer`)),
      );
    });
    // An answer never awaited (the run failed first) is no unhandled rejection.
    this.done.catch(() => undefined);
  }

  /** Hands the job over: the thread starts on the groups as they come. */
  begin(job: AdsJob): void {
    this.worker.ref();
    this.worker.postMessage({ job, port: this.theirPort, state: this.state }, [this.theirPort]);
  }

  /**
   * Keys the rows of a job with `groupKeys` (begun), a chunk at a time beside the thread, which
   * does the same; resolves once every row is keyed, rejects with the thread's error when it
   * failed or stopped.
   */
  async keyRows(maker: GroupKeyMaker, rows: FeedRows, out: RowGroupKeys): Promise<void> {
    keyChunks(this.state, maker, rows, out);
    for (;;) {
      const keyed = Atomics.load(this.state, KEYS_ROWS_DONE);
      if (keyed === rows.length) return;
      if (Atomics.load(this.state, KEYS_FAILED) === 1) break;
      const waited = waitAsync(this.state, KEYS_ROWS_DONE, keyed);
      if (waited.async) await Promise.race([waited.value, this.done]);
    }
    await this.done;
    throw new Error("The ads' thread did not key its rows");
  }

  /** One ad group, in the order the keyword step made them. */
  add(g: AdGroupRef): void {
    const b = this.batch;
    const c = this.campaigns.numberOf(g.campaign);
    // A campaign new since the batch before goes with this one.
    if (c === this.campaignsSent)
      b.campaigns.push(this.campaigns.names[this.campaignsSent++] as string);
    const k = b.count++;
    b.campaignOf[k] = c;
    b.names += g.adGroup;
    b.ends[k] = b.names.length;
    const id = rowNumberOf(g.id);
    if (id > 0) b.ids[k] = id;
    else (b.otherIds ??= new Map()).set(k, g.id);
    if (b.count === this.batchSize) this.post(false);
  }

  /** The groups are all handed over; resolves when the thread has written every ad. */
  finish(): Promise<AdsDone> {
    this.post(true);
    return this.done;
  }

  /** Ads written so far, and the row of the last. */
  progress(): { ads: number; row: number } {
    return {
      ads: Atomics.load(this.state, ADS_WRITTEN),
      row: Atomics.load(this.state, LAST_AD_ROW),
    };
  }

  /** Stops the thread (the run ended without it); resolves when it has stopped writing. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private post(last: boolean): void {
    const b = this.batch;
    b.last = last;
    this.port.postMessage(b, [b.campaignOf.buffer, b.ends.buffer, b.ids.buffer]);
    this.batch = emptyBatch();
    this.batchSize = Math.min(2 * this.batchSize, BATCH_GROUPS);
    Atomics.add(this.state, POSTED, 1);
    Atomics.notify(this.state, POSTED);
  }
}

function emptyBatch(): GroupBatch {
  return {
    campaigns: [],
    count: 0,
    campaignOf: new Int32Array(BATCH_GROUPS),
    ends: new Int32Array(BATCH_GROUPS),
    names: '',
    ids: new Int32Array(BATCH_GROUPS),
    otherIds: undefined,
    last: false,
  };
}

/**
 * The ad groups as they arrive, read by the ads' generator as one synchronous iteration: a batch
 * not yet sent is waited for (Atomics.wait, which a worker may do). When the templates read the
 * groups more than once (a legacy template's fallbacks), the first read keeps them packed and
 * later reads read them back.
 */
class ArrivingGroups implements Iterable<AdGroupTarget> {
  private readonly kept: PackedAdGroups | undefined;
  private arrived = false;

  constructor(
    private readonly port: MessagePort,
    private readonly state: Int32Array,
    keep: boolean,
  ) {
    this.kept = keep ? new PackedAdGroups() : undefined;
  }

  *[Symbol.iterator](): Iterator<AdGroupTarget> {
    if (this.arrived) {
      if (this.kept) yield* this.kept;
      return;
    }
    const campaigns: string[] = [];
    for (;;) {
      const posted = Atomics.load(this.state, POSTED);
      const m = receiveMessageOnPort(this.port);
      if (!m) {
        Atomics.wait(this.state, POSTED, posted);
        continue;
      }
      const b = m.message as GroupBatch;
      for (const c of b.campaigns) campaigns.push(c);
      let start = 0;
      for (let i = 0; i < b.count; i++) {
        const end = b.ends[i] as number;
        const g = {
          key: '',
          campaign: campaigns[b.campaignOf[i] as number] as string,
          adGroup: b.names.slice(start, end),
          id: b.otherIds?.get(i) ?? String(b.ids[i]),
        };
        start = end;
        this.kept?.add(g);
        yield g;
      }
      if (b.last) break;
    }
    this.arrived = true;
  }
}

/**
 * The thread's side (the compiled command runs it when it is not the main thread).
 * `beforeAnswer` runs once the ads are written, before the answer is posted (bin/compiled.cjs
 * keeps the thread's compiled code then: the main thread stops the thread once answered).
 */
export function runAdsThread(beforeAnswer?: () => void): void {
  const parent = parentPort;
  if (!parent) return;
  parent.once(
    'message',
    ({ job, port, state }: { job: AdsJob; port: MessagePort; state: Int32Array }) => {
      try {
        const done = writeAds(job, port, state);
        beforeAnswer?.();
        parent.postMessage({ done });
      } catch (e) {
        parent.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
      port.close();
    },
  );
}

function writeAds(job: AdsJob, port: MessagePort, state: Int32Array): AdsDone {
  const rows = new PackedFeedRows(job.feed);
  if (job.groupKeys) {
    const { campaign, out } = job.groupKeys;
    try {
      keyChunks(state, new GroupKeyMaker(restoreCampaignTemplate(campaign)), rows, out);
    } catch (e) {
      Atomics.store(state, KEYS_FAILED, 1);
      Atomics.notify(state, KEYS_ROWS_DONE);
      throw e;
    }
  }
  const rsa = job.rsa === undefined ? undefined : restoreRsaTemplate(job.rsa);
  const legacy = job.legacy === undefined ? undefined : restoreAdTemplate(job.legacy);
  const csv = job.rsaFd === undefined ? undefined : new OutputSink(job.rsaFd);
  const reportOut = job.reportFd === undefined ? undefined : new OutputSink(job.reportFd);
  const report = new IssueReport(reportOut, (n) => rows.lineOfRow(n), rows.length, false);
  let ads = 0;
  const counted = (rowId: string): void => {
    ads++;
    Atomics.store(state, ADS_WRITTEN, ads);
    Atomics.store(state, LAST_AD_ROW, Number(rowId));
  };
  const part = job.record && new RecordPartWriter(new OutputSink(job.record.fd), job.record.label);
  const items = job.record && part?.rowReader('responsive-search-ads', job.record.headers);
  const cells: string[] = [];
  generateSearchAds(
    { rows, rsa, legacy, today: job.today, constant: job.constant },
    // A legacy template's fallbacks read the groups again.
    new ArrivingGroups(port, state, legacy !== undefined),
    part && items
      ? {
          rsaAd: (ad) => {
            const line = responsiveSearchAdCells(ad, cells);
            csv?.line(line);
            part.add(items, line, rows.lineOfRow(Number(ad.rowId)));
            counted(ad.rowId);
          },
        }
      : { rsaLines: { csv, ad: counted } },
    (issues) => {
      for (const i of issues) report.add(i);
    },
  );
  csv?.end();
  reportOut?.end();
  const record = part?.end();
  return { ads, tallies: report.tallies(), ...(record ? { record } : {}) };
}

/** Keys chunks of rows (`KEY_CHUNK_ROWS`) until none is left to take; either thread runs it. */
function keyChunks(
  state: Int32Array,
  maker: GroupKeyMaker,
  rows: FeedRows,
  out: RowGroupKeys,
): void {
  for (;;) {
    const from = Atomics.add(state, KEYS_NEXT_CHUNK, 1) * KEY_CHUNK_ROWS;
    if (from >= rows.length) return;
    const to = Math.min(rows.length, from + KEY_CHUNK_ROWS);
    maker.fill(rows, from, to, out);
    Atomics.add(state, KEYS_ROWS_DONE, to - from);
    Atomics.notify(state, KEYS_ROWS_DONE);
  }
}

/** The bytes of a file from its start, a megabyte at a time (one buffer, reused). */
export function* fileChunks(fd: number): Iterable<Uint8Array> {
  const buffer = Buffer.allocUnsafe(1 << 20);
  let position = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) return;
    position += read;
    yield buffer.subarray(0, read);
  }
}
