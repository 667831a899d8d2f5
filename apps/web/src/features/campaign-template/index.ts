// The Campaigns tab: campaign template editor, keyword generation and outputs.
export { CampaignTab } from './CampaignTab.tsx';
export { generateCampaignJob, type CampaignOutput } from './campaignJobs.ts';
