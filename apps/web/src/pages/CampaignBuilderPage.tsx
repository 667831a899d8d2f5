import { useEffect } from 'react';
import { Tabs, Title } from '@mantine/core';
import { useSession } from '../state/useSession.ts';
import { useBuilderWorkspace } from '../features/builder/useBuilderWorkspace.ts';
import { ClientsSection } from '../features/builder/ClientsSection.tsx';
import { DataTableSection } from '../features/builder/DataTableSection.tsx';
import {
  ConflictDialog,
  DraftOfferDialog,
  useKeepUnsavedWork,
} from '../features/builder/UnsavedWork.tsx';
import {
  TemplateConflictDialog,
  TemplateDraftOfferDialog,
  WorkspaceSaveStatus,
  useKeepUnsavedTemplates,
} from '../features/builder/TemplateDialogs.tsx';
import { CampaignTab } from '../features/campaign-template/index.ts';
import { PerformanceTab, RsaTab } from '../features/ad-templates/index.ts';
import { ExtensionsTab } from '../features/extension-template/index.ts';
import {
  DownloadEverything,
  KeptOutputsContext,
  MicrosoftLocationsFile,
} from '../features/exports/index.ts';
import { ChangePlanPanel, accountLoopOf } from '../features/account-loop/index.ts';
import { IntroTutorial } from '../features/tutorial/IntroTutorial.tsx';
import { EXPORTED_TABLES } from './exportedTables.ts';
import './CampaignBuilderPage.css';

/** The four template tabs of spec section 2; their editors come with the next release. */
const TEMPLATE_TABS = [
  { value: 'campaigns', label: 'Campaigns', editor: 'campaign template editor' },
  { value: 'rsa', label: 'Responsive Search Ads', editor: 'responsive search ad template editor' },
  {
    value: 'performance',
    label: 'Performance Max Ads',
    editor: 'Performance Max template editor',
  },
  { value: 'extensions', label: 'Extensions', editor: 'extension template editor' },
] as const;

/** /campaign-builder: clients, the data table with its combiner, and the template tabs. */
export function CampaignBuilderPage() {
  const current = useSession();
  if (!current) return null;
  return <CampaignBuilder />;
}

function CampaignBuilder() {
  const workspace = useBuilderWorkspace();
  useEffect(() => {
    void workspace.start();
  }, [workspace]);
  useKeepUnsavedWork(workspace.editor);
  useKeepUnsavedTemplates(workspace.templateSets);
  const loop = accountLoopOf(workspace, EXPORTED_TABLES);

  return (
    <KeptOutputsContext.Provider value={workspace}>
      <div className="builder-page">
        <header className="builder-page__header">
          <Title order={1}>Campaign Builder</Title>
          <WorkspaceSaveStatus feeds={workspace.editor} sets={workspace.templateSets} />
        </header>
        <IntroTutorial />
        <ClientsSection />
        <DataTableSection />
        <section className="builder-section" aria-labelledby="templates-heading">
          <div className="builder-section__head">
            <Title order={2} size="h4" id="templates-heading" className="builder-section__title">
              Templates
            </Title>
            <DownloadEverything kinds={EXPORTED_TABLES} loop={loop} />
          </div>
          <MicrosoftLocationsFile />
          <Tabs defaultValue="campaigns" keepMounted={false}>
            <Tabs.List>
              {TEMPLATE_TABS.map((tab) => (
                <Tabs.Tab key={tab.value} value={tab.value}>
                  {tab.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="campaigns" pt="md">
              <CampaignTab />
            </Tabs.Panel>
            <Tabs.Panel value="rsa" pt="md">
              <RsaTab />
            </Tabs.Panel>
            <Tabs.Panel value="performance" pt="md">
              <PerformanceTab />
            </Tabs.Panel>
            <Tabs.Panel value="extensions" pt="md">
              <ExtensionsTab />
            </Tabs.Panel>
          </Tabs>
          {/* Below the tabs: the plan grows and shrinks as outputs are generated, and above
              them it moved the tabs and buttons under a person's pointer. */}
          <ChangePlanPanel loop={loop} />
        </section>
        <ConflictDialog editor={workspace.editor} what="This client's feeds" />
        <DraftOfferDialog editor={workspace.editor} what="this client's feeds" />
        <TemplateConflictDialog sets={workspace.templateSets} />
        <TemplateDraftOfferDialog sets={workspace.templateSets} feeds={workspace.editor} />
      </div>
    </KeptOutputsContext.Provider>
  );
}
