import { z } from 'zod';

// An operator's view (issue 38): the read-only calls of the Admin page.

/** Entries a page holds unless `limit` says otherwise. */
export const ADMIN_PAGE_DEFAULT_LIMIT = 50;
/** Most entries one page may hold. */
export const ADMIN_PAGE_MAX_LIMIT = 200;
/** Longest search text. */
export const ADMIN_QUERY_MAX_CHARS = 200;

/** The query of the entry lists: a search text, a page size, and the cursor of the next page. */
export const AdminEntriesQuerySchema = z.object({
  q: z.string().trim().max(ADMIN_QUERY_MAX_CHARS).optional().default(''),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1)
    .max(ADMIN_PAGE_MAX_LIMIT)
    .optional()
    .default(ADMIN_PAGE_DEFAULT_LIMIT),
  /** The `nextCursor` of the page before (absent: the newest entries). */
  cursor: z.string().max(500).optional(),
});
/** The query of the entry lists. */
export type AdminEntriesQuery = z.infer<typeof AdminEntriesQuerySchema>;

/** The query of the CSV downloads: the same search. */
export const AdminCsvQuerySchema = z.object({
  q: z.string().trim().max(ADMIN_QUERY_MAX_CHARS).optional().default(''),
});

/** One feedback entry. */
export const AdminFeedbackEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  email: z.string(),
  type: z.string(),
  message: z.string(),
});
/** One feedback entry. */
export type AdminFeedbackEntry = z.infer<typeof AdminFeedbackEntrySchema>;

/** One waiting-list entry. */
export const AdminWaitingListEntrySchema = z.object({
  /** ISO 8601. */
  createdAt: z.string(),
  email: z.string(),
});
/** One waiting-list entry. */
export type AdminWaitingListEntry = z.infer<typeof AdminWaitingListEntrySchema>;

/** A page of entries, newest first: how many match the search, and the next page's cursor. */
function pageSchema<T extends z.ZodTypeAny>(entry: T) {
  return z.object({
    entries: z.array(entry),
    /** Entries matching the search, in all pages. */
    total: z.number(),
    /** Pass as `cursor` for the next page; null on the last one. */
    nextCursor: z.string().nullable(),
  });
}

/** GET /api/admin/feedback */
export const AdminFeedbackPageSchema = pageSchema(AdminFeedbackEntrySchema);
/** GET /api/admin/feedback */
export type AdminFeedbackPage = z.infer<typeof AdminFeedbackPageSchema>;
/** GET /api/admin/waiting-list */
export const AdminWaitingListPageSchema = pageSchema(AdminWaitingListEntrySchema);
/** GET /api/admin/waiting-list */
export type AdminWaitingListPage = z.infer<typeof AdminWaitingListPageSchema>;

/** GET /api/admin/counts */
export const AdminCountsSchema = z.object({
  users: z.number(),
  verifiedUsers: z.number(),
  clients: z.number(),
  /** Clients' feeds. */
  feeds: z.number(),
  /** The users' own lists and data tables. */
  lists: z.number(),
  feedback: z.number(),
  waitingList: z.number(),
});
/** GET /api/admin/counts */
export type AdminCounts = z.infer<typeof AdminCountsSchema>;

/** One feature's settings: configured or not, and its non-secret values. */
export const AdminSettingSchema = z.object({
  /** A stable id, e.g. 'smtp'. */
  id: z.string(),
  /** The feature's name as the page shows it. */
  name: z.string(),
  configured: z.boolean(),
  /** The settings that turn it on (names only). */
  settings: z.array(z.string()),
  /** Non-secret values (a model's name, an address) and what happens without the feature. */
  details: z.array(z.object({ label: z.string(), value: z.string() })),
});
/** One feature's settings. */
export type AdminSetting = z.infer<typeof AdminSettingSchema>;

/** GET /api/admin/settings */
export const AdminSettingsSchema = z.object({ features: z.array(AdminSettingSchema) });
/** GET /api/admin/settings */
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;
