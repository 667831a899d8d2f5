/**
 * What an engine worker does with the page's messages (engine.worker.ts hands them over; tests
 * run it in the test's own thread): it keeps the selected rows the page sends, runs the jobs one
 * at a time, and answers through `post`.
 */
import { campaignParts, type CampaignTemplate, type FeedRow } from '@adloom/engine';
import { campaignGroupsOf, type CampaignGroups } from '../features/generation/campaignGroups.ts';
import { jobHandlers } from './jobHandlers.ts';
import {
  JobError,
  type EngineJobContext,
  type FromWorkerMessage,
  type JobPart,
  type ToWorkerMessage,
} from '../features/generation/jobTypes.ts';
import { collectTransferables, takeLongStrings } from '../features/generation/transferables.ts';
import { readRowsChunk } from '../features/generation/rowsChunk.ts';
import { restoreInput, type InputPart } from '../features/generation/inputParts.ts';

const PROGRESS_INTERVAL_MS = 50;
/** Campaign groups kept (a part's and the whole feed's, for a download after a pool's job). */
const KEPT_GROUPS = 2;

type JobMessage = Extract<ToWorkerMessage, { type: 'job' }>;

/** Rows of a job: the selected rows or a part of them, with their feed positions. */
interface JobRows {
  /** Names the rows (and the part) in the campaign groups' keys. */
  key: string;
  rows: FeedRow[];
  positions: Uint32Array;
}

/** Starts an engine worker's state; returns what to call with each message the page sends. */
export function engineScope(
  post: (message: FromWorkerMessage, transfer: Transferable[]) => void,
): (message: ToWorkerMessage) => void {
  /** The selected rows the page sent last, kept until other rows come. */
  let rowsKey: string | null = null;
  let rows: FeedRow[] = [];
  let positions: Uint32Array = new Uint32Array(0);
  let incoming: {
    key: string;
    rows: FeedRow[];
    positions: Uint32Array;
    filled: number;
  } | null = null;
  /** The campaign groups the last jobs made or used, by rows (and part) and template. */
  const groupsCache = new Map<string, CampaignGroups>();
  /** The last part's rows (a pool's jobs on one template ask for the same part again). */
  let partRows: JobRows | null = null;

  function takeRowsChunk(message: Extract<ToWorkerMessage, { type: 'rows-chunk' }>): void {
    const into = incoming;
    if (!into || into.key !== message.key) return;
    readRowsChunk(message, (row, position) => {
      into.rows[into.filled] = row;
      into.positions[into.filled] = position;
      into.filled += 1;
    });
  }

  /** The rows of part `part` (each campaign's rows in one part), or null when it has none. */
  function rowsOfPart(whole: JobRows, part: JobPart & { campaign: CampaignTemplate }) {
    const key = `${whole.key}\u001f${part.count}\u001f${part.index}\u001f${JSON.stringify(part.campaign)}`;
    if (partRows?.key === key) return partRows;
    const partOf = campaignParts(part.campaign, whole.rows, part.count);
    let picked: JobRows;
    if (!partOf)
      picked =
        part.index === 0 ? { ...whole, key } : { key, rows: [], positions: new Uint32Array(0) };
    else {
      const taken: FeedRow[] = [];
      const at: number[] = [];
      for (let r = 0; r < whole.rows.length; r += 1)
        if (partOf[r] === part.index) {
          taken.push(whole.rows[r] as FeedRow);
          at.push(whole.positions[r] as number);
        }
      picked = { key, rows: taken, positions: Uint32Array.from(at) };
    }
    partRows = picked;
    return picked;
  }

  function contextOf(
    id: number,
    of: JobRows,
    part: JobPart | undefined,
    whole: EngineJobContext | undefined,
  ): EngineJobContext {
    let lastProgress = 0;
    const groupsKey = (template: CampaignTemplate): string =>
      `${of.key}\u001f${JSON.stringify(template)}`;
    const keep = (key: string, groups: CampaignGroups): void => {
      groupsCache.delete(key);
      groupsCache.set(key, groups);
      for (const old of groupsCache.keys()) {
        if (groupsCache.size <= KEPT_GROUPS) break;
        groupsCache.delete(old);
      }
    };
    const ctx: EngineJobContext = {
      rows: of.rows,
      rowPositions: of.positions,
      part,
      get whole() {
        return whole ?? ctx;
      },
      progress(fraction) {
        const now = performance.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && fraction < 1) return;
        lastProgress = now;
        post({ type: 'progress', id, fraction: Math.max(0, Math.min(1, fraction)) }, []);
      },
      campaignGroups(template: CampaignTemplate) {
        const key = groupsKey(template);
        const kept = groupsCache.get(key);
        if (kept) return kept;
        const groups = campaignGroupsOf(template, ctx.rows);
        keep(key, groups);
        return groups;
      },
      keepCampaignGroups(template: CampaignTemplate, groups: CampaignGroups) {
        keep(groupsKey(template), groups);
      },
    };
    return ctx;
  }

  async function runJob(message: JobMessage): Promise<void> {
    const { id, kind, input } = message;
    const handler = (jobHandlers as Record<string, (i: unknown, c: EngineJobContext) => unknown>)[
      kind
    ];
    if (!handler) {
      post({ type: 'error', id, message: `Unknown job ${kind}`, isJobError: false }, []);
      return;
    }
    const hasRows = message.rowsKey !== null && message.rowsKey === rowsKey;
    const all: JobRows = hasRows
      ? { key: rowsKey as string, rows, positions }
      : { key: '', rows: [], positions: new Uint32Array(0) };
    try {
      let ctx = contextOf(id, all, undefined, undefined);
      if (message.part) {
        const own = rowsOfPart(all, message.part);
        if (own.rows.length === 0 && message.part.index > 0) {
          post({ type: 'done', id, result: null }, []);
          return;
        }
        const { index, count } = message.part;
        ctx = contextOf(id, own, { index, count }, ctx);
      }
      const result = await handler(input, ctx);
      const transfer = collectTransferables(result);
      const parts = takeLongStrings(result);
      parts.forEach((text, index) => post({ type: 'part', id, index, text }, []));
      post({ type: 'done', id, result }, transfer);
    } catch (error) {
      post(
        {
          type: 'error',
          id,
          message: error instanceof Error ? error.message : String(error),
          isJobError: error instanceof JobError,
        },
        [],
      );
    }
  }

  let queue: Promise<void> = Promise.resolve();
  /** The big values of coming jobs' inputs, by job id (see splitInput). */
  const inputParts = new Map<number, InputPart[]>();

  return (message) => {
    switch (message.type) {
      case 'rows-begin':
        incoming = {
          key: message.key,
          rows: new Array<FeedRow>(message.total),
          positions: new Uint32Array(message.total),
          filled: 0,
        };
        break;
      case 'rows-chunk':
        takeRowsChunk(message);
        break;
      case 'rows-end':
        if (incoming && incoming.key === message.key) {
          rows =
            incoming.rows.length === incoming.filled
              ? incoming.rows
              : incoming.rows.slice(0, incoming.filled);
          positions = incoming.positions.subarray(0, incoming.filled);
          rowsKey = message.key;
          groupsCache.clear();
          partRows = null;
        }
        incoming = null;
        break;
      case 'input-parts': {
        const parts = inputParts.get(message.id) ?? [];
        parts.push(...message.values);
        inputParts.set(message.id, parts);
        break;
      }
      case 'job': {
        const parts = inputParts.get(message.id) ?? [];
        // Parts of jobs that were cancelled before their job came are not kept.
        inputParts.clear();
        const job = { ...message, input: restoreInput(message.input, parts) };
        queue = queue.then(() => runJob(job));
        break;
      }
    }
  };
}
