/**
 * The account loop's server side (issue 35): a client's build history and its loop settings.
 *
 * A build is the engine's build record (`adloom-build.json`) gzip'd. It is sent as the request
 * body itself (`Content-Type: application/gzip`, no `Content-Encoding`), with a short description
 * (`BuildMeta`) in the `adloom-build` header. The server never reads inside the record.
 */
import { z } from 'zod';
import { NAME_MAX_CHARS, NameSchema } from './workspace.ts';

// ---- Loop settings ----

/**
 * What a plan does with items the feed no longer makes: `pause` them (the default), `remove` them,
 * or `keep` them as they are (the command line's `--dropped pause|remove|keep`).
 */
export const DROPPED_ITEM_ACTIONS = ['pause', 'remove', 'keep'] as const;
/** One of `DROPPED_ITEM_ACTIONS`. */
export type DroppedItemAction = (typeof DROPPED_ITEM_ACTIONS)[number];
/** A new client's choice for dropped items. */
export const DEFAULT_DROPPED_ITEM_ACTION: DroppedItemAction = 'pause';

/** The label a new client marks what Adloom made with. */
export const DEFAULT_LOOP_LABEL = 'adloom';
/** Longest label: Google Ads takes label names of 1 to 80 characters (docs/decisions.md). */
export const LOOP_LABEL_MAX_CHARS = 80;
/** Google Ads Editor separates several labels of one item with ';' in its `Labels` column. */
export const LOOP_LABEL_SEPARATOR = ';';

/** Messages of a refused label. */
export const LOOP_LABEL_MESSAGES = {
  empty: 'The label is required',
  tooLong: `The label must be at most ${LOOP_LABEL_MAX_CHARS} characters`,
  separator: `The label must not contain "${LOOP_LABEL_SEPARATOR}": Google Ads Editor reads it as the start of another label`,
  control: 'The label must not contain line breaks, tabs or other control characters',
} as const;

/** True when `text` holds a control character (C0, DEL, C1): a tab or line break would split an Editor file's cell. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Characters as Google counts them: code points, so an emoji is one. */
function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * The label Adloom marks the items it made with, so that a plan against the live account never
 * touches items without it: trimmed, 1 to `LOOP_LABEL_MAX_CHARS` characters, no ';', no
 * control character.
 */
export const LoopLabelSchema = z
  .string()
  .trim()
  .min(1, LOOP_LABEL_MESSAGES.empty)
  .refine((label) => countCharacters(label) <= LOOP_LABEL_MAX_CHARS, LOOP_LABEL_MESSAGES.tooLong)
  .refine((label) => !label.includes(LOOP_LABEL_SEPARATOR), LOOP_LABEL_MESSAGES.separator)
  .refine((label) => !hasControlCharacter(label), LOOP_LABEL_MESSAGES.control);

/** A client's loop settings. */
export const LoopSettingsSchema = z.object({
  /** What a plan does with items the feed no longer makes. */
  dropped: z.enum(DROPPED_ITEM_ACTIONS),
  /** The label on everything Adloom made for this client. */
  label: LoopLabelSchema,
});
/** GET and PATCH /api/clients/:id/loop-settings answer. */
export type LoopSettings = z.infer<typeof LoopSettingsSchema>;

/** PATCH /api/clients/:id/loop-settings: the settings to change (at least one). */
export const PatchLoopSettingsBodySchema = LoopSettingsSchema.partial()
  .strict()
  .refine((body) => body.dropped !== undefined || body.label !== undefined, {
    message: 'Send dropped, label or both',
  });
/** PATCH /api/clients/:id/loop-settings body. */
export type PatchLoopSettingsBody = z.input<typeof PatchLoopSettingsBodySchema>;

// ---- Builds ----

/** The request header carrying a build's description (`encodeBuildMetaHeader`). */
export const BUILD_META_HEADER = 'adloom-build';
/**
 * Longest `adloom-build` header value. Servers and proxies cap a request's headers (Node.js at
 * 16 KiB in all, nginx at 8 KiB a line): 6 KiB leaves room for the rest.
 */
export const BUILD_META_HEADER_MAX_CHARS = 6 * 1024;
/** The content type of a build record, sent and answered. */
export const BUILD_RECORD_CONTENT_TYPE = 'application/gzip';
/** The file name a build record is downloaded as. */
export const BUILD_RECORD_FILE_NAME = 'adloom-build.json.gz';
/** Answer headers of a record download: which build it is, and when it was made. */
export const BUILD_ID_HEADER = 'adloom-build-id';
export const BUILD_CREATED_AT_HEADER = 'adloom-build-created-at';

/** Most kinds of item a build counts. */
export const BUILD_COUNT_KINDS_MAX = 64;
/** A kind of item as the engine names it, e.g. `keyword`, `responsive-search-ad`. */
const BuildCountKindSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'A count must be named by a kind such as "keyword"');

/** Items per kind of item in a build, e.g. `{ "campaign": 4, "keyword": 120000 }`. */
export const BuildCountsSchema = z
  .record(BuildCountKindSchema, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
  .refine((counts) => Object.keys(counts).length <= BUILD_COUNT_KINDS_MAX, {
    message: `At most ${BUILD_COUNT_KINDS_MAX} kinds may be counted`,
  });
/** Items per kind of item in a build. */
export type BuildCounts = z.infer<typeof BuildCountsSchema>;

/** Most template names a build's description lists (its `templateCount` says how many it used). */
export const BUILD_TEMPLATE_NAMES_MAX = 500;

/**
 * What the history lists of a build: the feed and templates it was made from, the label it put
 * on its items and how many items of each kind it made. `templateNames` may be only the first
 * names (see `encodeBuildMetaHeader`); `templateCount` is how many templates the build used.
 */
export const BuildMetaSchema = z
  .object({
    feedName: NameSchema,
    templateNames: z
      .array(z.string().trim().min(1).max(NAME_MAX_CHARS))
      .max(BUILD_TEMPLATE_NAMES_MAX),
    templateCount: z.number().int().min(0).max(1_000_000),
    label: LoopLabelSchema,
    counts: BuildCountsSchema,
  })
  .strict()
  .refine((meta) => meta.templateCount >= meta.templateNames.length, {
    message: 'templateCount must be at least the number of templateNames',
    path: ['templateCount'],
  });
/** A build's description, as sent with its record. */
export type BuildMeta = z.infer<typeof BuildMetaSchema>;

/**
 * The `adloom-build` header value of a build's description: its JSON, URL-encoded (any
 * characters survive the header's ASCII). When that is longer than
 * `BUILD_META_HEADER_MAX_CHARS`, template names are left off from the end until it fits
 * (`templateCount` still says how many there were; the record itself names them all).
 */
export function encodeBuildMetaHeader(meta: BuildMeta): string {
  const encode = (names: readonly string[]) =>
    encodeURIComponent(JSON.stringify({ ...meta, templateNames: names }));
  let value = encode(meta.templateNames);
  if (value.length <= BUILD_META_HEADER_MAX_CHARS) return value;
  // Binary search for the most names that fit: each step is one encode of the whole description.
  let low = 0;
  let high = meta.templateNames.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (encode(meta.templateNames.slice(0, mid)).length <= BUILD_META_HEADER_MAX_CHARS) low = mid;
    else high = mid - 1;
  }
  value = encode(meta.templateNames.slice(0, low));
  return value;
}

/**
 * The description in an `adloom-build` header value, unchecked (validate it with
 * `BuildMetaSchema`); undefined when the value is not URL-encoded JSON.
 */
export function decodeBuildMetaHeader(value: string): unknown {
  try {
    return JSON.parse(decodeURIComponent(value)) as unknown;
  } catch {
    return undefined;
  }
}

/** One stored build, as the history lists it (never the record). */
export interface BuildSummary extends BuildMeta {
  id: string;
  /** ISO time the server stored it. */
  createdAt: string;
  /** Bytes of the gzip'd record. */
  sizeBytes: number;
}

/** GET /api/clients/:id/builds: the client's builds, newest first. */
export interface BuildListAnswer {
  builds: BuildSummary[];
}

/** Messages of the build calls. */
export const BUILD_MESSAGES = {
  clientNotFound: 'Client not found',
  buildNotFound: 'Build not found',
  noBuilds: 'This client has no build yet',
  notGzip: 'The build record must be gzip data (it does not start with the gzip signature)',
  empty: 'The build record is empty',
  missingMeta: `The ${BUILD_META_HEADER} header is missing: it describes the build (feed, templates, label, counts)`,
  badMeta: `The ${BUILD_META_HEADER} header is not URL-encoded JSON`,
  metaTooLong: `The ${BUILD_META_HEADER} header is longer than ${BUILD_META_HEADER_MAX_CHARS} characters`,
  contentType: `Send the build record as the request body with Content-Type ${BUILD_RECORD_CONTENT_TYPE}`,
  contentEncoding: `Send the gzip bytes themselves as the body, without Content-Encoding`,
} as const;

/** The id of a client or a build: a UUID (anything else is answered 404, as a missing one). */
export const ResourceIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
