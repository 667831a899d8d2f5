import { Stack, Text } from '@mantine/core';
import type { BuilderWorkspace } from '../builder/builderWorkspace.ts';
import { TemplateToolbar, useTemplateSet } from '../templates/index.ts';

/** The Campaigns tab: the campaign template editor, generation and its outputs. */
export function CampaignTab({ workspace }: { workspace: BuilderWorkspace }) {
  const { hasClient, active } = useTemplateSet(workspace, 'campaignTemplates');
  if (!hasClient)
    return (
      <Text c="dimmed" size="sm">
        Choose or create a client to see its templates.
      </Text>
    );
  return (
    <Stack gap="md">
      <TemplateToolbar workspace={workspace} kind="campaignTemplates" label="Campaign template" />
      {active ? null : (
        <Text c="dimmed" size="sm">
          This client has no campaign templates yet: New Template makes one.
        </Text>
      )}
    </Stack>
  );
}
