import { PLACEHOLDERS } from '@adloom/engine';
import { SegmentedControl, Text, TextInput } from '@mantine/core';
import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import { CampaignSettingsEditor } from './CampaignSettingsEditor.tsx';
import { KeywordTable } from './KeywordTable.tsx';
import { emptyPatternMessage, namePatternFields } from './namePatterns.ts';

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
          {namePatternFields(template).map((field) => {
            const value = template[field.key];
            return (
              <TextInput
                key={field.key}
                label={field.label}
                description={`For example ${field.example}`}
                error={value.trim() === '' ? emptyPatternMessage(field) : undefined}
                value={value}
                maxLength={2000}
                onChange={(event) => set({ [field.key]: event.currentTarget.value })}
              />
            );
          })}
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
