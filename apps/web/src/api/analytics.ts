import { keptForPage } from '../state/pageState.ts';

/** Spec section 8: the error analytics event carries at most 99 characters of the message. */
export const ANALYTICS_MESSAGE_MAX_CHARS = 99;

/** One analytics event. */
export interface AnalyticsEvent {
  name: string;
  message?: string;
  status?: number;
  path?: string;
  [key: string]: unknown;
}

/** Where events go: a tag manager, a collector, or the console. */
export type AnalyticsSink = (event: AnalyticsEvent) => void;

const consoleSink: AnalyticsSink = (event) => {
  if (import.meta.env.DEV) console.info('[analytics]', event);
};

let sink: AnalyticsSink = consoleSink;
keptForPage(() => {
  sink = consoleSink;
});

/** Replaces the analytics sink (a tag manager in production); returns the previous one. */
export function setAnalyticsSink(next: AnalyticsSink): AnalyticsSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Records an event. Never throws: analytics must not break the app. */
export function track(event: AnalyticsEvent): void {
  const safe =
    typeof event.message === 'string'
      ? { ...event, message: event.message.slice(0, ANALYTICS_MESSAGE_MAX_CHARS) }
      : event;
  try {
    sink(safe);
  } catch {
    // ignored on purpose
  }
}
