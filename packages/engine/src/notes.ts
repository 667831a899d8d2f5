/**
 * Performance Max asset groups need images before they can run; our files carry only texts
 * (../shared/GOOGLE-ADS.md). Said beside every Performance Max output, in the web app's zip and
 * in the command line's output folder.
 */
export const IMAGES_NEEDED_NOTE =
  'Asset groups still need images before they can run: add a marketing image, a square marketing image and a logo to each in Google Ads Editor.';

/** The text file written beside asset groups or Performance Max ads (CRLF, for Windows users). */
export const IMAGES_NEEDED_FILE_TEXT = [
  'Performance Max asset groups still need images before they can run.',
  '',
  'The CSV files beside this note carry only the asset groups and their texts. Google Ads Editor',
  'imports them, but each asset group stays incomplete until it has at least:',
  '- a marketing image (landscape, 1.91:1),',
  '- a square marketing image (1:1),',
  '- a logo (square, 1:1).',
  '',
  'Add them to each asset group in Google Ads Editor (or in Google Ads) before posting.',
  '',
].join('\r\n');
