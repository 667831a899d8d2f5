// The Campaigns tab: campaign template editor, keyword generation and outputs.
export { CampaignTab } from './CampaignTab.tsx';
