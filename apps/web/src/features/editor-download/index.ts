// One zip of every generated output's Google Ads Editor CSV, for the Templates section.
export { DownloadEverything } from './DownloadEverything.tsx';
