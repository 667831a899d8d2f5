/**
 * Workspace payloads of spec section 7: clients, feeds, lists, the five template kinds, the
 * waiting list and feedback. Every save carries an optional `revision`: a save naming an older
 * revision than the stored one answers 409 `conflict` with the current state in
 * `error.details.current`; a save without one overwrites (the spec's behaviour).
 *
 * Template input schemas accept the legacy shapes the spec names (plain-string headlines, a
 * missing or capitalised campaign type); the server restores them to the engine's types.
 */
import { z } from 'zod';
import {
  CALLS_TO_ACTION,
  EXTENSION_ATTACH_LEVELS,
  EXTENSION_INPUT_MAX_CHARS,
  EXTENSION_TYPES,
  FEED_COLUMN_DEFINITIONS,
  MATCH_TYPES,
  PMAX_MAX_DESCRIPTIONS,
  PMAX_MAX_HEADLINES,
  PMAX_MAX_LONG_HEADLINES,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_PATH_COUNT,
  findCallToAction,
  findExtensionAttachLevel,
  findExtensionTypeName,
  findMatchType,
  identifiedFeedCellsFrom,
  newFeedCells,
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restorePerformanceMaxTemplate,
  restoreRsaTemplate,
} from '@adloom/engine';
import type {
  AdTemplate,
  CampaignTemplate,
  ExtensionTemplate,
  Feed,
  FeedCells,
  PerformanceMaxTemplate,
  RsaTemplate,
} from '@adloom/engine';

/** Longest client, feed, list or template name. */
export const NAME_MAX_CHARS = 200;
/** Longest text of a template field (patterns hold placeholders, so more than the ad limit). */
export const TEMPLATE_TEXT_MAX_CHARS = EXTENSION_INPUT_MAX_CHARS;
/** Most rows one feed or list may hold (a 200k-row feed fits with room to spare). */
export const FEED_MAX_ROWS = 250_000;
/** Most feeds in one client's set, or lists in a user's set. */
export const FEEDS_MAX_PER_SET = 500;
/** Most templates of one kind in one client. */
export const TEMPLATES_MAX_PER_SET = 500;
/** Most fallbacks (or legacy versions) in one template. */
export const FALLBACKS_MAX = 100;
/** Most keyword patterns in one campaign template. */
export const KEYWORDS_MAX = 2000;
/** Most optional settings on one campaign template. */
export const OPTIONAL_SETTINGS_MAX = 200;
/** Most labels on one fallback. */
export const LABELS_MAX = 50;
/** Longest row id. */
export const ROW_ID_MAX_CHARS = 100;
/** Longest sheet URL (a URL). */
export const SHEET_URL_MAX_CHARS = 2048;
/** PostgreSQL text cannot hold NUL; reject it as bad input instead of failing the save. */
const hasNoNul = (value: string): boolean => !value.includes('\0');
const NUL_MESSAGE = 'Text must not contain NUL characters';

/** Free text of a template field, at most `max` characters, no NUL. */
function text(max = TEMPLATE_TEXT_MAX_CHARS) {
  return z.string().max(max).refine(hasNoNul, NUL_MESSAGE);
}

/**
 * A name as a person types it (of a client, a feed or a template): trimmed, non-empty, any
 * characters but NUL. A client name is URL-encoded in paths.
 */
export const NameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_CHARS, `Name must be at most ${NAME_MAX_CHARS} characters`)
  .refine(hasNoNul, NUL_MESSAGE);

/** A stored set's revision: 0 before the first save, then one more per save. */
export const RevisionSchema = z.number().int().min(0).max(2_147_483_647);

/** A problem with one feed row field: where (relative to the rows array) and what. */
export interface FeedRowIssue {
  path: (string | number)[];
  message: string;
}

/** Most row problems reported for one feed (the rest would only repeat them). */
export const FEED_ROW_ISSUES_MAX = 20;

/** One feed row after validation: every feed column trimmed; id '' when the row had none. */
export type ParsedFeedRow = { id: string } & FeedCells;

function readCell(
  row: Record<string, unknown>,
  key: string,
  max: number,
  index: number,
  issues: FeedRowIssue[],
): string {
  const value = row[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    issues.push({ path: [index, key], message: `${key} must be text` });
    return '';
  }
  const trimmed = value.trim();
  if (trimmed.length > max)
    issues.push({ path: [index, key], message: `At most ${max} characters` });
  else if (trimmed.includes('\0')) issues.push({ path: [index, key], message: NUL_MESSAGE });
  return trimmed;
}

/** The cells of the row `parseFeedRow` is reading (reused: the row copies them). */
const PARSED_CELLS: string[] = [];

/**
 * Validates one feed row (spec section 5): each of the engine's `FEED_COLUMN_DEFINITIONS`
 * trimmed and at most its `maxChars` (30 for root..var3, 2048 for url); `id` optional text;
 * `selected` (client-only) and unknown fields are dropped. Problems are appended to `issues`.
 */
export function parseFeedRow(value: unknown, index: number, issues: FeedRowIssue[]): ParsedFeedRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ path: [index], message: 'A row must be an object' });
    return { id: '', ...newFeedCells() };
  }
  const row = value as Record<string, unknown>;
  const cells = PARSED_CELLS;
  FEED_COLUMN_DEFINITIONS.forEach((column, c) => {
    cells[c] = readCell(row, column.key, column.maxChars, index, issues);
  });
  const parsed: ParsedFeedRow = identifiedFeedCellsFrom('', cells);
  const id = row.id;
  if (typeof id === 'string' && id !== '') {
    if (id.length > ROW_ID_MAX_CHARS)
      issues.push({ path: [index, 'id'], message: `At most ${ROW_ID_MAX_CHARS} characters` });
    else parsed.id = id;
  } else if (typeof id === 'number' && Number.isFinite(id)) {
    parsed.id = String(id);
  } else if (id !== undefined && id !== null && id !== '') {
    issues.push({ path: [index, 'id'], message: 'id must be text' });
  }
  return parsed;
}

/**
 * A feed's rows: hand-written checks rather than one zod object per row, because a feed may
 * hold 200k rows and this runs on every save (about 10x faster than an object schema).
 */
export const FeedRowsSchema = z
  .array(z.unknown())
  .max(FEED_MAX_ROWS, `At most ${FEED_MAX_ROWS} rows`)
  .transform((rows, ctx) => {
    const issues: FeedRowIssue[] = [];
    const parsed = new Array<ParsedFeedRow>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      parsed[i] = parseFeedRow(rows[i], i, issues);
      if (issues.length >= FEED_ROW_ISSUES_MAX) break;
    }
    for (const issue of issues.slice(0, FEED_ROW_ISSUES_MAX)) {
      ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: rows });
    }
    return parsed;
  });

/** One feed row (see `parseFeedRow`). */
export const FeedRowSchema = z.unknown().transform((value, ctx) => {
  const issues: FeedRowIssue[] = [];
  const parsed = parseFeedRow(value, 0, issues);
  for (const issue of issues) {
    ctx.issues.push({
      code: 'custom',
      message: issue.message,
      path: issue.path.slice(1),
      input: value,
    });
  }
  return parsed;
});

/**
 * A feed or list as sent: dataType 'table' or 'list', sheetUrl ('' when not linked),
 * sheetName, rows, and the server's `_id` when it has one. Feeds linked to a spreadsheet
 * (non-empty sheetUrl) are stored with empty rows.
 */
export const FeedSchema = z.object({
  _id: z.string().max(100).optional(),
  name: NameSchema,
  dataType: z.enum(['table', 'list']).default('table'),
  sheetUrl: z
    .string()
    .trim()
    .max(SHEET_URL_MAX_CHARS)
    .nullish()
    .transform((v) => v ?? ''),
  sheetName: z
    .string()
    .trim()
    .max(NAME_MAX_CHARS)
    .nullish()
    .transform((v) => v ?? ''),
  rows: FeedRowsSchema.default([]),
});
/** A feed or list as sent. */
export type FeedInput = z.input<typeof FeedSchema>;

/** Text with a pin: pos 0 free, 1..n fixed. A legacy plain string means `{ text, pos: 0 }`. */
export const PinnedTextInputSchema = z.union([
  text(),
  z.object({
    text: text().default(''),
    pos: z.number().int().min(0).max(RSA_MAX_HEADLINES).default(0),
  }),
]);

const Paths = z
  .array(text())
  .max(RSA_PATH_COUNT, `At most ${RSA_PATH_COUNT} paths`)
  .default(['', '']);
const Labels = z.array(text()).max(LABELS_MAX).default([]);
const TemplateId = z.string().max(100).optional();

/** Campaign template (spec section 3); a missing type is restored to 'search'. */
export const CampaignTemplateInputSchema = z
  .object({
    _id: TemplateId,
    name: NameSchema,
    /** 'search' or 'performance' in any case; missing or unknown is restored to 'search'. */
    type: z.string().max(50).nullish(),
    const: text().default(''),
    campaign: text().default(''),
    adGroup: text().default(''),
    assetGroup: text().default(''),
    keywords: z
      .array(
        z.object({
          keyword: text().default(''),
          matchType: z
            .preprocess(
              (v) => (v == null || v === '' ? undefined : (findMatchType(v) ?? v)),
              z.enum(MATCH_TYPES),
            )
            .default('Broad'),
          selected: z.boolean().optional(),
        }),
      )
      .max(KEYWORDS_MAX)
      .default([]),
    settings: z
      .object({
        budget: z
          .object({
            value: z.coerce
              .number()
              .min(0.01, 'Budget must be at least 0.01')
              .max(1e12)
              .default(0.01),
            selected: z.boolean().default(false),
          })
          .optional(),
        location: z
          .object({
            value: z.coerce.string().max(TEMPLATE_TEXT_MAX_CHARS).default(''),
            selected: z.boolean().default(false),
          })
          .optional(),
        isLocationCampaign: z.boolean().default(false),
        optionalSettings: z
          .array(
            z.object({
              name: text(NAME_MAX_CHARS),
              value: z.coerce.string().max(TEMPLATE_TEXT_MAX_CHARS).default(''),
              selected: z.boolean().default(false),
            }),
          )
          .max(OPTIONAL_SETTINGS_MAX)
          .default([]),
        dropBlockingNegatives: z.boolean().default(false),
      })
      .optional(),
  })
  .transform((t) => restoreCampaignTemplate(t));

/** One responsive search ad fallback: up to 15 headlines, 4 descriptions, 2 paths. */
export const RsaFallbackInputSchema = z.object({
  headlines: z
    .array(PinnedTextInputSchema)
    .max(RSA_MAX_HEADLINES, `At most ${RSA_MAX_HEADLINES} headlines`)
    .default([]),
  descriptions: z
    .array(PinnedTextInputSchema)
    .max(RSA_MAX_DESCRIPTIONS, `At most ${RSA_MAX_DESCRIPTIONS} descriptions`)
    .default([]),
  paths: Paths,
  labels: Labels,
});

/** Responsive search ad template. */
export const RsaTemplateInputSchema = z
  .object({
    _id: TemplateId,
    name: NameSchema,
    templates: z.array(RsaFallbackInputSchema).max(FALLBACKS_MAX).default([]),
  })
  .transform((t) => restoreRsaTemplate(t));

/** One Performance Max fallback: up to 15 headlines, 5 long headlines and 5 descriptions. */
export const PerformanceMaxFallbackInputSchema = z.object({
  headlines: z
    .array(PinnedTextInputSchema)
    .max(PMAX_MAX_HEADLINES, `At most ${PMAX_MAX_HEADLINES} headlines`)
    .default([]),
  longHeadlines: z
    .array(PinnedTextInputSchema)
    .max(PMAX_MAX_LONG_HEADLINES, `At most ${PMAX_MAX_LONG_HEADLINES} long headlines`)
    .default([]),
  descriptions: z
    .array(PinnedTextInputSchema)
    .max(PMAX_MAX_DESCRIPTIONS, `At most ${PMAX_MAX_DESCRIPTIONS} descriptions`)
    .default([]),
  paths: Paths,
  labels: Labels,
  businessName: text().default(''),
  callToAction: z
    .preprocess(
      (v) => (v == null ? '' : (findCallToAction(v) ?? v)),
      z.enum([...CALLS_TO_ACTION, '']),
    )
    .default(''),
});

/** Performance Max template. */
export const PerformanceMaxTemplateInputSchema = z
  .object({
    _id: TemplateId,
    name: NameSchema,
    templates: z.array(PerformanceMaxFallbackInputSchema).max(FALLBACKS_MAX).default([]),
  })
  .transform((t) => restorePerformanceMaxTemplate(t));

/** Legacy expanded text ad fallback. */
export const AdFallbackInputSchema = z.object({
  h1: text().default(''),
  h2: text().default(''),
  h3: text().default(''),
  dl1: text().default(''),
  dl2: text().default(''),
  p1: text().default(''),
  p2: text().default(''),
  adType: text(NAME_MAX_CHARS).default(''),
  label: text().default(''),
});

/** Legacy ad template: versions of fallbacks (a flat list of fallbacks is one version). */
export const AdTemplateInputSchema = z
  .object({
    _id: TemplateId,
    name: NameSchema,
    templates: z
      .array(z.union([z.array(AdFallbackInputSchema).max(FALLBACKS_MAX), AdFallbackInputSchema]))
      .max(FALLBACKS_MAX)
      .default([]),
  })
  .transform((t) => restoreAdTemplate(t));

/**
 * Extension template: its type's field definitions, where its assets attach and the field values
 * of each entry.
 */
export const ExtensionTemplateInputSchema = z
  .object({
    _id: TemplateId,
    name: NameSchema,
    /** The type's name (or `{ name, fields }`); the spec's field definitions are restored from it. */
    extensionType: z
      .union([
        z.string().max(50),
        z.looseObject({ name: z.string().max(50).optional(), type: z.string().max(50).optional() }),
      ])
      .refine(
        (t) => findExtensionTypeName(typeof t === 'string' ? t : (t.name ?? t.type)) !== undefined,
        `Extension type must be one of ${EXTENSION_TYPES.join(', ')}`,
      ),
    /** Where its assets attach; missing is 'auto'. */
    attachTo: z
      .string()
      .max(50)
      .refine(
        (l) => findExtensionAttachLevel(l) !== undefined,
        `Attach to must be one of ${EXTENSION_ATTACH_LEVELS.join(', ')}`,
      )
      .optional(),
    templates: z
      .array(z.record(z.string().max(NAME_MAX_CHARS), text()))
      .max(FALLBACKS_MAX)
      .default([]),
  })
  .transform((t) => restoreExtensionTemplate(t));

/** The five template kinds, by the key the client bundle uses. */
export const TEMPLATE_KINDS = [
  'campaignTemplates',
  'adTemplates',
  'rsaTemplates',
  'performanceMaxTemplates',
  'extensionTemplates',
] as const;
/** One template kind. */
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Stored template type of each kind. */
export interface TemplateOfKind {
  campaignTemplates: CampaignTemplate;
  adTemplates: AdTemplate;
  rsaTemplates: RsaTemplate;
  performanceMaxTemplates: PerformanceMaxTemplate;
  extensionTemplates: ExtensionTemplate;
}

/** Input schema of each template kind. */
export const TEMPLATE_INPUT_SCHEMAS = {
  campaignTemplates: CampaignTemplateInputSchema,
  adTemplates: AdTemplateInputSchema,
  rsaTemplates: RsaTemplateInputSchema,
  performanceMaxTemplates: PerformanceMaxTemplateInputSchema,
  extensionTemplates: ExtensionTemplateInputSchema,
} as const;

/** Body of a template save: the client's whole set of one kind. */
function templateSaveBody<T extends z.ZodType>(template: T) {
  return z.object({
    templates: z.array(template).max(TEMPLATES_MAX_PER_SET),
    name: NameSchema,
    revision: RevisionSchema.optional(),
  });
}

/** POST /api/app/save-campaign-templates */
export const SaveCampaignTemplatesBodySchema = templateSaveBody(CampaignTemplateInputSchema);
/** POST /api/app/save-ad-templates */
export const SaveAdTemplatesBodySchema = templateSaveBody(AdTemplateInputSchema);
/** POST /api/app/save-rsa-templates */
export const SaveRsaTemplatesBodySchema = templateSaveBody(RsaTemplateInputSchema);
/** POST /api/app/save-performance-max-templates */
export const SavePerformanceMaxTemplatesBodySchema = templateSaveBody(
  PerformanceMaxTemplateInputSchema,
);
/** POST /api/app/save-extension-templates */
export const SaveExtensionTemplatesBodySchema = templateSaveBody(ExtensionTemplateInputSchema);

/** Save body schema of each template kind. */
export const SAVE_TEMPLATES_BODY_SCHEMAS = {
  campaignTemplates: SaveCampaignTemplatesBodySchema,
  adTemplates: SaveAdTemplatesBodySchema,
  rsaTemplates: SaveRsaTemplatesBodySchema,
  performanceMaxTemplates: SavePerformanceMaxTemplatesBodySchema,
  extensionTemplates: SaveExtensionTemplatesBodySchema,
} as const;

/** POST and DELETE /api/app/clients */
export const ClientNameBodySchema = z.object({ name: NameSchema });
/** POST and DELETE /api/app/clients */
export type ClientNameBody = z.infer<typeof ClientNameBodySchema>;

/** POST /api/app/feeds: the client's whole feed set. */
export const SaveFeedsBodySchema = z.object({
  feeds: z.array(FeedSchema).max(FEEDS_MAX_PER_SET),
  name: NameSchema,
  revision: RevisionSchema.optional(),
});
/** POST /api/app/feeds */
export type SaveFeedsBody = z.input<typeof SaveFeedsBodySchema>;

/** POST /api/app/lists: the user's whole set of lists and data tables. */
export const SaveListsBodySchema = z.object({
  feeds: z.array(FeedSchema).max(FEEDS_MAX_PER_SET),
  revision: RevisionSchema.optional(),
});
/** POST /api/app/lists */
export type SaveListsBody = z.input<typeof SaveListsBodySchema>;

// ---- Answers ----

/** When the last rows were read from or written to a linked feed's sheet, and how many. */
export const SheetSyncSchema = z.object({
  /** ISO time. */
  at: z.string(),
  /** `read`: downloaded; `written`: uploaded; `kept`: rows the feed held when it was linked. */
  direction: z.enum(['read', 'written', 'kept']),
  rows: z.number().int().min(0),
});
/** The last sync of a linked feed. */
export type SheetSync = z.infer<typeof SheetSyncSchema>;

/**
 * A feed or list as the server answers it. A linked feed's rows are the last rows read from or
 * written to its sheet (the kept copy), with `sheetSync` saying when.
 */
export interface StoredFeed extends Feed {
  sheetSync?: SheetSync;
}

/** GET /api/app/clients and DELETE /api/app/clients: the client names, oldest first. */
export const ClientListSchema = z.array(z.string());
/** POST /api/app/clients: the created (possibly renamed) client and the list. */
export const CreateClientAnswerSchema = z.object({ name: z.string(), clients: ClientListSchema });
/** POST /api/app/clients answer. */
export type CreateClientAnswer = z.infer<typeof CreateClientAnswerSchema>;

/** Revisions of a client's six stored sets. */
export const ClientRevisionsSchema = z.object({
  feeds: RevisionSchema,
  campaignTemplates: RevisionSchema,
  adTemplates: RevisionSchema,
  rsaTemplates: RevisionSchema,
  performanceMaxTemplates: RevisionSchema,
  extensionTemplates: RevisionSchema,
});
/** Revisions of a client's six stored sets. */
export type ClientRevisions = z.infer<typeof ClientRevisionsSchema>;

/** GET /api/app/clients/:name: everything a client holds, with the revisions to save against. */
export interface ClientBundleAnswer {
  /** Not in the spec: the client's id, which the build and loop-settings calls take (issue 35). */
  id: string;
  feeds: StoredFeed[];
  campaignTemplates: CampaignTemplate[];
  adTemplates: AdTemplate[];
  rsaTemplates: RsaTemplate[];
  performanceMaxTemplates: PerformanceMaxTemplate[];
  extensionTemplates: ExtensionTemplate[];
  revisions: ClientRevisions;
}

/** POST /api/app/feeds answer (and the 409 `details.current`): the stored set and its revision. */
export interface FeedsAnswer {
  name: string;
  feeds: StoredFeed[];
  revision: number;
}

/** GET/POST /api/app/lists answer (and the 409 `details.current`). */
export interface ListsAnswer {
  message?: string;
  feeds: StoredFeed[];
  revision: number;
}

/** A template save's answer (and the 409 `details.current`). */
export interface TemplatesAnswer<K extends TemplateKind = TemplateKind> {
  name: string;
  templates: TemplateOfKind[K][];
  revision: number;
}

/** Success text of POST /api/app/lists. */
export const LISTS_SAVED_MESSAGE = 'Your data was successfully updated';
/** Success text of POST /api/app/waiting-list. */
export const WAITING_LIST_MESSAGE = 'Thank you for signing up for our waiting list';
/** Success text of POST /api/feedback. */
export const FEEDBACK_THANKS_MESSAGE = 'Thank you for your feedback!';
/** Message of a 409 answer: the set changed since the client loaded it. */
export const SAVE_CONFLICT_MESSAGE =
  'This was changed elsewhere since you loaded it. Reload to see the latest version, or save again to overwrite it.';
