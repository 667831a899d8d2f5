import { z } from 'zod';

/**
 * The nine guides of the help wheel (spec section 2), in wheel order. They name the help
 * videos in the HELP_VIDEO_URLS setting; 'intro' is also the first-time tutorial's video.
 */
export const GUIDE_IDS = [
  'intro',
  'campaign-builder',
  'data-table',
  'lists-and-feeds',
  'campaign-template',
  'rsa-templates',
  'live-previews',
  'linking-sheets',
  'geo-feeds',
] as const;
/** One guide of the help wheel. */
export type GuideId = (typeof GUIDE_IDS)[number];

/**
 * The configured third-party frames the web app may show: a player address per guide with a
 * video, the landing page's intro video and the demo booking widget. A guide missing here, or a
 * null address, is not configured: the web app then shows its own content and loads no frame.
 */
export const MediaSettingsSchema = z.object({
  helpVideoUrls: z.partialRecord(z.enum(GUIDE_IDS), z.string()),
  landingVideoUrl: z.string().nullable(),
  demoBookingUrl: z.string().nullable(),
});
/** The configured third-party frames. */
export type MediaSettings = z.infer<typeof MediaSettingsSchema>;
