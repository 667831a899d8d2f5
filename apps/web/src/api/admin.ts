import {
  API,
  AdminCountsSchema,
  AdminFeedbackPageSchema,
  AdminSettingsSchema,
  AdminWaitingListPageSchema,
  type AdminCounts,
  type AdminFeedbackPage,
  type AdminSettings,
  type AdminWaitingListPage,
} from '@adloom/contract';
import { http } from './client.ts';

// The Admin page's calls (issue 38): operators only; failures go through the generic handler.

/** The entry lists' query string: the search text and the next page's cursor. */
function entriesQuery(q: string, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (q.trim() !== '') params.set('q', q.trim());
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A page of feedback entries, newest first. */
export function fetchFeedbackPage(q: string, cursor?: string | null): Promise<AdminFeedbackPage> {
  return http.get(`${API.admin.feedback}${entriesQuery(q, cursor)}`, {
    schema: AdminFeedbackPageSchema,
  });
}

/** A page of waiting-list entries, newest first. */
export function fetchWaitingListPage(
  q: string,
  cursor?: string | null,
): Promise<AdminWaitingListPage> {
  return http.get(`${API.admin.waitingList}${entriesQuery(q, cursor)}`, {
    schema: AdminWaitingListPageSchema,
  });
}

/** Every entry matching `q` as a CSV file. */
export function downloadEntriesCsv(kind: 'feedback' | 'waitingList', q: string): Promise<Blob> {
  const path = kind === 'feedback' ? API.admin.feedbackCsv : API.admin.waitingListCsv;
  return http.getBlob(`${path}${entriesQuery(q)}`);
}

/** Counts of users, clients, feeds, lists, feedback and the waiting list. */
export function fetchAdminCounts(): Promise<AdminCounts> {
  return http.get(API.admin.counts, { schema: AdminCountsSchema });
}

/** What each feature has configured. */
export function fetchAdminSettings(): Promise<AdminSettings> {
  return http.get(API.admin.settings, { schema: AdminSettingsSchema });
}
