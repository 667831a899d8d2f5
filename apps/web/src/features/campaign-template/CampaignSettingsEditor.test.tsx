import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { newCampaignTemplate, type CampaignSettings } from '@adloom/engine';
import {
  CampaignSettingsEditor,
  SETTING_MESSAGES,
  shortSettingName,
} from './CampaignSettingsEditor.tsx';

function edit(start: CampaignSettings) {
  const seen: CampaignSettings[] = [];
  function Host() {
    const [settings, setSettings] = useState(start);
    return (
      <CampaignSettingsEditor
        settings={settings}
        onChange={(next) => {
          seen.push(next);
          setSettings(next);
        }}
      />
    );
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
  return { seen, last: () => seen[seen.length - 1] };
}

const base = newCampaignTemplate('t').settings;

describe('CampaignSettingsEditor', () => {
  it('adds a setting and refuses a second one of the same name', async () => {
    const user = userEvent.setup();
    const { last } = edit(base);
    await user.click(screen.getByRole('button', { name: 'Add Setting' }));
    let dialog = screen.getByRole('dialog', { name: 'New Setting' });
    await user.type(within(dialog).getByLabelText(/Setting name/), 'Networks');
    await user.click(within(dialog).getByRole('button', { name: 'Add New' }));
    expect(last()?.optionalSettings).toEqual([{ name: 'Networks', value: '', selected: true }]);

    await user.click(screen.getByRole('button', { name: 'Add Setting' }));
    dialog = screen.getByRole('dialog', { name: 'New Setting' });
    await user.type(within(dialog).getByLabelText(/Setting name/), ' networks ');
    await user.click(within(dialog).getByRole('button', { name: 'Add New' }));
    expect(within(dialog).getByText(SETTING_MESSAGES.existsOnAdd)).toBeTruthy();
    expect(last()?.optionalSettings).toHaveLength(1);
  });

  it('renames through the modal, refusing a name another setting has', async () => {
    const user = userEvent.setup();
    const { last } = edit({
      ...base,
      optionalSettings: [
        { name: 'Networks', value: 'Google search', selected: true },
        { name: 'Languages', value: 'en', selected: false },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Rename Languages' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename Setting' });
    const input = within(dialog).getByLabelText(/Setting name/);
    await user.clear(input);
    await user.type(input, 'Networks');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText(SETTING_MESSAGES.existsOnRename)).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'Language');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(last()?.optionalSettings[1]).toEqual({ name: 'Language', value: 'en', selected: false });

    await user.click(screen.getByRole('checkbox', { name: 'Include Language' }));
    expect(last()?.optionalSettings[1]?.selected).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove Networks' }));
    expect(last()?.optionalSettings.map((s) => s.name)).toEqual(['Language']);
  });

  it('lets the person drop negatives that block their own keywords (off by default)', async () => {
    const user = userEvent.setup();
    const { last } = edit(base);
    const box = screen.getByRole('checkbox', {
      name: 'Drop negatives that block their own keywords',
    });
    expect((box as HTMLInputElement).checked).toBe(false);
    await user.click(box);
    expect(last()?.dropBlockingNegatives).toBe(true);
    await user.click(box);
    expect(last()?.dropBlockingNegatives).toBe(false);
  });

  it('lets the person keep a keyword only in its first ad group (off by default)', async () => {
    const user = userEvent.setup();
    const { last } = edit(base);
    const box = screen.getByRole('checkbox', { name: 'Keep a keyword only in its first ad group' });
    expect((box as HTMLInputElement).checked).toBe(false);
    await user.click(box);
    expect(last()?.keepKeywordInFirstAdGroup).toBe(true);
  });

  it('keeps a budget under 0.01 out of the template and says why', async () => {
    const user = userEvent.setup();
    const { seen } = edit(base);
    const budget = screen.getByLabelText('Budget');
    await user.clear(budget);
    await user.type(budget, '0.001');
    expect(screen.getByText(SETTING_MESSAGES.budgetTooLow)).toBeTruthy();
    expect(seen.every((s) => s.budget.value >= 0.01)).toBe(true);
    await user.clear(budget);
    await user.type(budget, '12.5');
    expect(seen[seen.length - 1]?.budget.value).toBe(12.5);
  });

  it('labels the location as the row ID for a location campaign', async () => {
    const user = userEvent.setup();
    const { last } = edit(base);
    expect(screen.getByRole('textbox', { name: 'Location' })).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Location Campaign' }));
    expect(last()?.isLocationCampaign).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Location ID' })).toHaveProperty('value', '{root}');
  });

  it('shows long names to 20 characters', () => {
    expect(shortSettingName('Networks')).toBe('Networks');
    expect(shortSettingName('A very long setting name here')).toBe('A very long setting …');
  });
});
