import { PLACEHOLDERS } from '@adloom/engine';
import { SegmentedControl, Text, TextInput } from '@mantine/core';
import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import { CampaignSettingsEditor } from './CampaignSettingsEditor.tsx';
import { KeywordTable } from './KeywordTable.tsx';

const PLACEHOLDER_HINT = `Placeholders: ${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')}`;

/** The template's fields, keyword table and settings. */
export function CampaignEditor({
  template,
  onChange,
}: {
  template: CampaignTemplate;
  onChange: (next: CampaignTemplate) => void;
}) {
  const isPerformance = template.type === 'performance';
  const set = (patch: Partial<CampaignTemplate>) => onChange({ ...template, ...patch });
  return (
    <div className="campaign-editor">
      <div className="campaign-editor__main">
        <div className="campaign-editor__fields">
          <div className="campaign-editor__type">
            <Text size="sm" fw={500} id="campaign-type-label" mb={4}>
              Campaign type
            </Text>
            <SegmentedControl
              aria-labelledby="campaign-type-label"
              value={template.type}
              data={[
                { value: 'search', label: 'Search' },
                { value: 'performance', label: 'Performance Max' },
              ]}
              onChange={(value) => set({ type: value as CampaignType })}
            />
          </div>
          <TextInput
            label="Constant value"
            description="Used as {const} in every pattern"
            value={template.const}
            maxLength={2000}
            onChange={(event) => set({ const: event.currentTarget.value })}
          />
          <TextInput
            label="Campaign name pattern"
            placeholder="{root} - Search"
            value={template.campaign}
            maxLength={2000}
            onChange={(event) => set({ campaign: event.currentTarget.value })}
          />
          {isPerformance ? (
            <TextInput
              label="Asset group pattern"
              placeholder="{root} {mod}"
              value={template.assetGroup}
              maxLength={2000}
              onChange={(event) => set({ assetGroup: event.currentTarget.value })}
            />
          ) : (
            <TextInput
              label="Ad group name pattern"
              placeholder="{root} {mod} - {mt}"
              value={template.adGroup}
              maxLength={2000}
              onChange={(event) => set({ adGroup: event.currentTarget.value })}
            />
          )}
          <Text size="xs" c="dimmed">
            {PLACEHOLDER_HINT}
          </Text>
        </div>
        {isPerformance ? null : (
          <KeywordTable keywords={template.keywords} onChange={(keywords) => set({ keywords })} />
        )}
      </div>
      <CampaignSettingsEditor
        settings={template.settings}
        onChange={(settings) => set({ settings })}
      />
    </div>
  );
}
