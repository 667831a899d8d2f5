/** One feature of the help wheel (spec section 3: id, name, icon, video). */
export interface HelpFeature {
  id: string;
  name: string;
  /** A short glyph shown in the wheel. */
  icon: string;
  /** What the feature does, shown beside its video. */
  summary: string;
  /** The privacy-enhanced player's video id; null until a video is published. */
  video: string | null;
}

/** Spec section 9: the help video is 840 by 472.5. */
export const HELP_VIDEO_WIDTH = 840;
export const HELP_VIDEO_HEIGHT = 472.5;
/** Spec section 9: the video appears 500 ms after a feature is chosen; closing takes 500 ms. */
export const HELP_VIDEO_DELAY_MS = 500;
export const HELP_CLOSE_ANIMATION_MS = 500;
/** Shown for a feature without a video. */
export const VIDEO_COMING_SOON = 'Video coming soon...';

/** The nine features of spec section 2, in wheel order. */
export const HELP_FEATURES: HelpFeature[] = [
  {
    id: 'intro',
    name: 'Intro to Adloom',
    icon: 'A',
    video: null,
    summary:
      'A tour of the product: clients, feeds, templates and the tables you take to Google Ads Editor.',
  },
  {
    id: 'campaign-builder',
    name: 'Campaign Builder',
    icon: 'CB',
    video: null,
    summary:
      'Choose a client, a feed and rows, then generate keywords, ads, asset groups and extensions from your templates.',
  },
  {
    id: 'data-table',
    name: 'Data Table',
    icon: 'DT',
    video: null,
    summary:
      'Edit feed rows (root, modifier, var 1–3, final URL), select rows, paste from a spreadsheet or import a CSV.',
  },
  {
    id: 'lists-and-feeds',
    name: 'Lists & Feeds',
    icon: 'LF',
    video: null,
    summary:
      'Keep reusable lists and data tables on the Lists screen and add them to any client’s rows.',
  },
  {
    id: 'campaign-template',
    name: 'Campaign Template',
    icon: 'CT',
    video: null,
    summary:
      'Write campaign, ad group and keyword patterns with {root}, {mod}, {var1}… and pick match types and settings.',
  },
  {
    id: 'rsa-templates',
    name: 'RSA Templates',
    icon: 'RSA',
    video: null,
    summary:
      'Build responsive search ads with fallbacks, pinned positions, paths and labels, checked against the character limits.',
  },
  {
    id: 'live-previews',
    name: 'Live Previews',
    icon: 'LP',
    video: null,
    summary:
      'Watch your ads render row by row, shuffle headline positions and spot rows that need a fallback.',
  },
  {
    id: 'linking-sheets',
    name: 'Linking Sheets',
    icon: 'GS',
    video: null,
    summary: 'Link a feed or list to a Google Sheet to upload to it or download from it.',
  },
  {
    id: 'geo-feeds',
    name: 'Geo Feeds',
    icon: 'GEO',
    video: null,
    summary: 'Search Google’s geo targets by country and type and turn the results into a feed.',
  },
];
