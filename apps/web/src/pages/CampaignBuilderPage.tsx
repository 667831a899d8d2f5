import { NotBuiltYetPage } from './NotBuiltYetPage.tsx';

/** /campaign-builder (being built). */
export function CampaignBuilderPage() {
  return <NotBuiltYetPage title="Campaign Builder" />;
}
