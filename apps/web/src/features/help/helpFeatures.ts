import type { GuideId } from '@adloom/contract';

/** One feature of the help wheel (spec section 3: id, name, icon, video). */
export interface HelpFeature {
  /** Also the feature's key in the HELP_VIDEO_URLS setting, and its icon. */
  id: GuideId;
  name: string;
  /** What the feature does, shown beside its video or walkthrough. */
  summary: string;
  /** Shown when no video is configured: the steps, and a screenshot of the real screen. */
  walkthrough: { steps: string[]; screenshot: string; screenshotAlt: string };
}

/** Spec section 9: the help video is 840 by 472.5. */
export const HELP_VIDEO_WIDTH = 840;
export const HELP_VIDEO_HEIGHT = 472.5;
/** Spec section 9: the video appears 500 ms after a feature is chosen; closing takes 500 ms. */
export const HELP_VIDEO_DELAY_MS = 500;
export const HELP_CLOSE_ANIMATION_MS = 500;
/** The walkthroughs' screenshots (public/guides, made by e2e/journeys/guide-screens.spec.ts). */
export const GUIDE_SCREENSHOT_WIDTH = 1200;
export const GUIDE_SCREENSHOT_HEIGHT = 720;

const screenshot = (id: GuideId) => `/guides/${id}.webp`;

/** The first guide, also the first-time tutorial's content. */
export const INTRO_GUIDE: HelpFeature = {
  id: 'intro',
  name: 'Intro to Adloom',
  summary:
    'A tour of the product: clients, feeds, templates and the tables you take to Google Ads Editor.',
  walkthrough: {
    steps: [
      'Make a client with New Client: each client keeps its own feeds and templates.',
      'Fill the data table with rows (root, modifier, var 1–3, final URL), or paste or import them.',
      'Write a template on one of the four tabs, select rows and press Generate.',
      'Copy the output table, or download everything for Google Ads Editor (or for Microsoft Advertising); from the second export on, read the change plan under the template tabs and download only the changes.',
    ],
    screenshot: screenshot('intro'),
    screenshotAlt: 'The Campaign Builder with a client, its feed rows and the template tabs',
  },
};

/** The nine features of spec section 2, in wheel order. */
export const HELP_FEATURES: HelpFeature[] = [
  INTRO_GUIDE,
  {
    id: 'campaign-builder',
    name: 'Campaign Builder',
    summary:
      'Choose a client, a feed and rows, then generate keywords, ads, asset groups and extensions from your templates.',
    walkthrough: {
      steps: [
        'Pick a client in the Client dropdown, or make one with New Client.',
        'Choose a feed and tick the rows to build from.',
        'Open the Campaigns tab, choose a template and press Generate Keywords or Output.',
        'Move on to Responsive Search Ads, Performance Max Ads or Extensions with the same rows.',
      ],
      screenshot: screenshot('campaign-builder'),
      screenshotAlt: 'Generated keywords under the campaign template',
    },
  },
  {
    id: 'data-table',
    name: 'Data Table',
    summary:
      'Edit feed rows (root, modifier, var 1–3, final URL), select rows, paste from a spreadsheet or import a CSV.',
    walkthrough: {
      steps: [
        'Type in a cell, or paste rows copied from a spreadsheet (the first line is skipped as headers).',
        'Import a CSV file whose header names the columns.',
        'Tick rows to generate from them; the header checkbox selects every row.',
        'Press Save Feeds to keep your changes.',
      ],
      screenshot: screenshot('data-table'),
      screenshotAlt: 'The data table with rows of roots, modifiers and final URLs',
    },
  },
  {
    id: 'lists-and-feeds',
    name: 'Lists & Feeds',
    summary:
      'Keep reusable lists and data tables on the Lists screen and add them to any client’s rows.',
    walkthrough: {
      steps: [
        'Open Lists in the sidebar.',
        'Choose the Data Tables or the Lists tab and make a new one.',
        'Edit its rows, then save your changes.',
        'In the Campaign Builder, pick a list in a seed box or with add list to rows.',
      ],
      screenshot: screenshot('lists-and-feeds'),
      screenshotAlt: 'The Lists screen with its Data Tables and Lists tabs',
    },
  },
  {
    id: 'campaign-template',
    name: 'Campaign Template',
    summary:
      'Write campaign, ad group and keyword patterns with {root}, {mod}, {var1}… and pick match types and settings.',
    walkthrough: {
      steps: [
        'On the Campaigns tab press New Template and name it.',
        'Write the campaign and ad group name patterns with {root}, {mod} and {var1}.',
        'Add keywords and choose each one’s match type.',
        'Set the budget and location, then save the template.',
      ],
      screenshot: screenshot('campaign-template'),
      screenshotAlt: 'The campaign template editor with name patterns and keywords',
    },
  },
  {
    id: 'rsa-templates',
    name: 'RSA Templates',
    summary:
      'Build responsive search ads with fallbacks, pinned positions, paths and labels, checked against the character limits.',
    walkthrough: {
      steps: [
        'On the Responsive Search Ads tab press New Template.',
        'Write headlines and descriptions with variables; the counters show the characters left.',
        'Pin a text to a position, or leave it free.',
        'Add a fallback for rows whose text would run past the limits, then Generate Ads.',
      ],
      screenshot: screenshot('rsa-templates'),
      screenshotAlt: 'The responsive search ad template with headlines, descriptions and paths',
    },
  },
  {
    id: 'live-previews',
    name: 'Live Previews',
    summary:
      'Watch your ads render row by row, shuffle headline positions and spot rows that need a fallback.',
    walkthrough: {
      steps: [
        'Select rows, then press Ad Preview on the ad tab.',
        'The preview plays through your rows; pause it or step back and forward.',
        'Press Shuffle to see other headline and description positions.',
        'A row marked FALLBACK NEEDED needs a shorter fallback.',
      ],
      screenshot: screenshot('live-previews'),
      screenshotAlt: 'The ad preview showing a search ad built from a feed row',
    },
  },
  {
    id: 'linking-sheets',
    name: 'Linking Sheets',
    summary: 'Link a feed or list to a Google Sheet to upload to it or download from it.',
    walkthrough: {
      steps: [
        'On the Account page, press Link Google Sheets and allow Adloom in Google.',
        'In the Campaign Builder or on Lists, press Link New Sheet and paste the sheet’s address.',
        'Choose whether to keep this feed’s rows or the sheet’s.',
        'Use Upload Data and Download Data to move rows either way.',
      ],
      screenshot: screenshot('linking-sheets'),
      screenshotAlt: 'The Account page with the Google Sheets integration',
    },
  },
  {
    id: 'geo-feeds',
    name: 'Geo Feeds',
    summary: 'Search Google’s geo targets by country and type and turn the results into a feed.',
    walkthrough: {
      steps: [
        'Press New Geo Feed beside the feed dropdown.',
        'Name the feed and choose a target type, such as City.',
        'Enter a country code, and optionally a parent ID or a name filter.',
        'Create the feed: each target becomes a row with its ID and name.',
      ],
      screenshot: screenshot('geo-feeds'),
      screenshotAlt: 'The New Geo Feed dialog with its fields',
    },
  },
];
