/// <reference lib="webworker" />
import type { CampaignTemplate, FeedRow } from '@adloom/engine';
import { campaignGroupsOf, type CampaignGroups } from '../features/generation/campaignGroups.ts';
import { jobHandlers } from './jobHandlers.ts';
import {
  JobError,
  type EngineJobContext,
  type FromWorkerMessage,
  type ToWorkerMessage,
} from '../features/generation/jobTypes.ts';
import { collectTransferables, takeLongStrings } from '../features/generation/transferables.ts';
import { readRowsChunk } from '../features/generation/rowsChunk.ts';
import { restoreInput, type InputPart } from '../features/generation/inputParts.ts';

declare const self: DedicatedWorkerGlobalScope;

const PROGRESS_INTERVAL_MS = 50;

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
/** The campaign groups the last jobs made or used, by rows and template. */
let groupsCache: { key: string; groups: CampaignGroups } | null = null;

function post(message: FromWorkerMessage, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

function takeRowsChunk(message: Extract<ToWorkerMessage, { type: 'rows-chunk' }>): void {
  const into = incoming;
  if (!into || into.key !== message.key) return;
  readRowsChunk(message, (row, position) => {
    into.rows[into.filled] = row;
    into.positions[into.filled] = position;
    into.filled += 1;
  });
}

async function runJob(message: Extract<ToWorkerMessage, { type: 'job' }>): Promise<void> {
  const { id, kind, input } = message;
  const handler = (jobHandlers as Record<string, (i: unknown, c: EngineJobContext) => unknown>)[
    kind
  ];
  if (!handler) {
    post({ type: 'error', id, message: `Unknown job ${kind}`, isJobError: false });
    return;
  }
  const hasRows = message.rowsKey !== null && message.rowsKey === rowsKey;
  const groupsKey = (template: CampaignTemplate): string =>
    `${hasRows ? rowsKey : ''}\u001f${JSON.stringify(template)}`;
  let lastProgress = 0;
  const ctx: EngineJobContext = {
    rows: hasRows ? rows : [],
    rowPositions: hasRows ? positions : new Uint32Array(0),
    progress(fraction) {
      const now = performance.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && fraction < 1) return;
      lastProgress = now;
      post({ type: 'progress', id, fraction: Math.max(0, Math.min(1, fraction)) });
    },
    campaignGroups(template: CampaignTemplate) {
      const key = groupsKey(template);
      if (groupsCache?.key === key) return groupsCache.groups;
      groupsCache = null;
      const groups = campaignGroupsOf(template, ctx.rows);
      groupsCache = { key, groups };
      return groups;
    },
    keepCampaignGroups(template: CampaignTemplate, groups: CampaignGroups) {
      groupsCache = { key: groupsKey(template), groups };
    },
  };
  try {
    const result = await handler(input, ctx);
    const transfer = collectTransferables(result);
    const parts = takeLongStrings(result);
    parts.forEach((text, index) => post({ type: 'part', id, index, text }));
    post({ type: 'done', id, result }, transfer);
  } catch (error) {
    post({
      type: 'error',
      id,
      message: error instanceof Error ? error.message : String(error),
      isJobError: error instanceof JobError,
    });
  }
}

let queue: Promise<void> = Promise.resolve();
/** The big values of coming jobs' inputs, by job id (see splitInput). */
const inputParts = new Map<number, InputPart[]>();

self.onmessage = (event: MessageEvent<ToWorkerMessage>) => {
  const message = event.data;
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
        groupsCache = null;
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
