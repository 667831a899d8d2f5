import { Button, Group, Stack, Tabs, Text } from '@mantine/core';
import type { CampaignType } from '@adloom/engine';
import { OriginNote } from '../exports/OriginNote.tsx';
import type { DownloadTarget } from '../exports/index.ts';
import { EDITOR_FORMAT_ID, MICROSOFT_FORMAT_ID, type DownloadFormat } from '../exports/formats.ts';
import { IMAGES_NEEDED_NOTE } from '@adloom/engine';
import { IssuesList, OutputTable } from '../output/index.ts';
import { CAMPAIGN_TABLE_KINDS } from './exportTables.ts';
import {
  clearOneOutput,
  useCampaignTabOutputStore,
  type CampaignTabOutput,
} from './campaignTabState.ts';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** The generated campaign output: its summary, the zip download and a tab per table. */
export function CampaignOutputView({
  type,
  result,
  isPerformance,
  tab,
  onTabChange,
  target,
  zipping,
  onZip,
}: {
  /** The campaign type of the output shown. */
  type: CampaignType;
  result: CampaignTabOutput;
  isPerformance: boolean;
  tab: string | null;
  onTabChange: (tab: string | null) => void;
  /** Who the downloads are for (named after the client, with its label). */
  target: DownloadTarget;
  /** The format being zipped, or null. */
  zipping: DownloadFormat | null;
  onZip: (format: DownloadFormat) => void;
}) {
  const tabOutput = useCampaignTabOutputStore();
  const { output } = result;
  return (
    <>
      <Group gap="sm" mt="xs" justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={2} className="campaign-output__summary">
          <OriginNote origin={result.origin} />
          <Text size="sm" c="dimmed" role="status">
            {`From ${NUMBER_FORMAT.format(result.rowCount)} rows: ${NUMBER_FORMAT.format(output.keywords.rowCount)} keywords, ${NUMBER_FORMAT.format(output.negatives.rowCount)} negatives, ${NUMBER_FORMAT.format(output.adGroupCount)} ad groups, ${NUMBER_FORMAT.format(output.assetGroupCount)} asset groups, ${NUMBER_FORMAT.format(output.campaignCount)} campaigns (${(result.elapsedMs / 1000).toFixed(1)} s).`}
          </Text>
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end">
          {(
            [
              [EDITOR_FORMAT_ID, 'Download all for Google Ads Editor (zip)'],
              [MICROSOFT_FORMAT_ID, 'Download all for Microsoft Advertising (zip)'],
            ] as const
          ).map(([format, words]) => (
            <Button
              key={format}
              size="xs"
              variant="light"
              onClick={() => onZip(format)}
              loading={zipping === format}
              disabled={zipping !== null && zipping !== format}
            >
              {words}
            </Button>
          ))}
        </Group>
      </Group>
      <div className="campaign-output__grid">
        <Tabs
          value={tab}
          onChange={onTabChange}
          keepMounted={false}
          className="campaign-output__tabs"
        >
          <Tabs.List>
            <Tabs.Tab value="keywords">Keywords</Tabs.Tab>
            <Tabs.Tab value="negatives">Negatives</Tabs.Tab>
            {isPerformance ? null : <Tabs.Tab value="adGroups">Ad Groups</Tabs.Tab>}
            {isPerformance ? <Tabs.Tab value="assetGroups">Asset Groups</Tabs.Tab> : null}
            <Tabs.Tab value="campaigns">Campaigns</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="keywords" pt="sm">
            <OutputTable
              label="Keywords"
              table={output.keywords}
              onClear={() => clearOneOutput(tabOutput, type, 'keywords')}
              editorExport={{ kind: CAMPAIGN_TABLE_KINDS.keywords, target }}
              emptyText={
                isPerformance ? 'A Performance Max campaign has no keywords.' : 'No keywords.'
              }
            />
          </Tabs.Panel>
          <Tabs.Panel value="negatives" pt="sm">
            <OutputTable
              label="Negatives"
              table={output.negatives}
              onClear={() => clearOneOutput(tabOutput, type, 'negatives')}
              editorExport={{ kind: CAMPAIGN_TABLE_KINDS.negatives, target }}
              emptyText="No negatives."
            />
          </Tabs.Panel>
          {isPerformance ? null : (
            <Tabs.Panel value="adGroups" pt="sm">
              <OutputTable
                label="Ad Groups"
                table={output.adGroups}
                onClear={() => clearOneOutput(tabOutput, type, 'adGroups')}
                editorExport={{ kind: CAMPAIGN_TABLE_KINDS.adGroups, target }}
                emptyText="No ad groups."
                unit={['ad group', 'ad groups']}
              />
            </Tabs.Panel>
          )}
          {isPerformance ? (
            <Tabs.Panel value="assetGroups" pt="sm">
              <Text size="xs" c="#a33a0c" mb={6} className="campaign-output__images">
                {IMAGES_NEEDED_NOTE}
              </Text>
              <OutputTable
                label="Asset Groups"
                table={output.assetGroups}
                onClear={() => clearOneOutput(tabOutput, type, 'assetGroups')}
                editorExport={{ kind: CAMPAIGN_TABLE_KINDS.assetGroups, target }}
                emptyText="No asset groups."
              />
            </Tabs.Panel>
          ) : null}
          <Tabs.Panel value="campaigns" pt="sm">
            <OutputTable
              label="Campaigns"
              table={output.campaigns}
              onClear={() => clearOneOutput(tabOutput, type, 'campaigns')}
              editorExport={{ kind: CAMPAIGN_TABLE_KINDS.campaigns, target }}
              emptyText="No campaigns."
              unit={['row', 'rows']}
            />
          </Tabs.Panel>
        </Tabs>
        <div className="campaign-output__issues">
          <IssuesList table={output.issues} />
        </div>
      </div>
    </>
  );
}
