import { useEffect, useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { NAME_MAX_CHARS } from '@adloom/contract';
import {
  BUDGET_MIN,
  OPTIONAL_SETTING_NAME_DISPLAY_MAX_CHARS,
  type CampaignSettings,
  type OptionalSetting,
} from '@adloom/engine';

/** Spec section 5: the two texts for a setting name already on the template. */
export const SETTING_MESSAGES = {
  existsOnAdd: 'Setting already exists on template',
  existsOnRename: 'A setting with that name already exists',
  budgetTooLow: `Budget must be at least ${BUDGET_MIN}`,
  budgetNotNumber: 'Budget must be a number',
} as const;

/** A setting name cut to 20 characters (spec section 9), with '…' when cut. */
export function shortSettingName(name: string): string {
  return name.length > OPTIONAL_SETTING_NAME_DISPLAY_MAX_CHARS
    ? `${name.slice(0, OPTIONAL_SETTING_NAME_DISPLAY_MAX_CHARS)}…`
    : name;
}

/** Whether a setting name is taken (case and surrounding spaces ignored). */
export function isSettingNameTaken(
  settings: readonly OptionalSetting[],
  name: string,
  except?: number,
): boolean {
  const wanted = name.trim().toLowerCase();
  return settings.some((s, i) => i !== except && s.name.trim().toLowerCase() === wanted);
}

function SettingNameModal({
  opened,
  title,
  initialName,
  submitLabel,
  validate,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  initialName: string;
  submitLabel: string;
  validate: (name: string) => string | null;
  onClose: () => void;
  onSubmit: (name: string) => void;
}) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setName(initialName);
      setError(null);
    }
  }, [opened, initialName]);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    const problem = validate(trimmed);
    setError(problem);
    if (problem === null) onSubmit(trimmed);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={handleSubmit} aria-label={title}>
        <Stack gap="md">
          <TextInput
            label="Setting name"
            description="The Google Ads Editor column, e.g. Networks or Languages"
            required
            data-autofocus
            value={name}
            maxLength={NAME_MAX_CHARS}
            error={error}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={name.trim() === ''}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Campaign settings (spec section 2): budget (at least 0.01), location (the row's ID for a
 * location campaign), the Default / Location Campaign switch, and optional named settings
 * that are added, renamed (modal), removed and included.
 */
export function CampaignSettingsEditor({
  settings,
  onChange,
}: {
  settings: CampaignSettings;
  onChange: (next: CampaignSettings) => void;
}) {
  const [budgetText, setBudgetText] = useState(String(settings.budget.value));
  const [isAddOpen, setIsAddOpen] = useState(false);
  const [renaming, setRenaming] = useState<number | null>(null);
  const optional = settings.optionalSettings;

  // Another template (or a reload) brings another budget.
  useEffect(() => {
    setBudgetText((text) =>
      Number.parseFloat(text) === settings.budget.value ? text : String(settings.budget.value),
    );
  }, [settings.budget.value]);

  const budgetNumber = Number(budgetText.trim());
  const budgetError =
    budgetText.trim() === '' || !Number.isFinite(budgetNumber)
      ? SETTING_MESSAGES.budgetNotNumber
      : budgetNumber < BUDGET_MIN
        ? SETTING_MESSAGES.budgetTooLow
        : null;

  function setOptional(next: OptionalSetting[]) {
    onChange({ ...settings, optionalSettings: next });
  }

  return (
    <div className="campaign-settings">
      <Text fw={600} size="sm" mb={6}>
        Settings
      </Text>
      <Stack gap="sm">
        <Group gap="xs" align="center" wrap="nowrap">
          <Text size="sm" c={settings.isLocationCampaign ? 'dimmed' : undefined}>
            Default Campaign
          </Text>
          <Switch
            label="Location Campaign"
            checked={settings.isLocationCampaign}
            onChange={(event) =>
              onChange({ ...settings, isLocationCampaign: event.currentTarget.checked })
            }
          />
        </Group>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <Checkbox
            mt={30}
            aria-label="Include Budget"
            checked={settings.budget.selected}
            onChange={(event) =>
              onChange({
                ...settings,
                budget: { ...settings.budget, selected: event.currentTarget.checked },
              })
            }
          />
          <TextInput
            className="campaign-settings__field"
            label="Budget"
            inputMode="decimal"
            value={budgetText}
            error={budgetError}
            onChange={(event) => {
              const text = event.currentTarget.value;
              setBudgetText(text);
              const n = Number(text.trim());
              if (text.trim() !== '' && Number.isFinite(n) && n >= BUDGET_MIN)
                onChange({ ...settings, budget: { ...settings.budget, value: n } });
            }}
          />
        </Group>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <Checkbox
            mt={30}
            aria-label="Include Location"
            checked={settings.isLocationCampaign || settings.location.selected}
            disabled={settings.isLocationCampaign}
            onChange={(event) =>
              onChange({
                ...settings,
                location: { ...settings.location, selected: event.currentTarget.checked },
              })
            }
          />
          {settings.isLocationCampaign ? (
            <TextInput
              className="campaign-settings__field"
              label="Location ID"
              description="Each row's Root (a geo feed's criteria ID)"
              value="{root}"
              readOnly
            />
          ) : (
            <TextInput
              className="campaign-settings__field"
              label="Location"
              description="A Google location ID, or a pattern such as {var1}"
              value={settings.location.value}
              maxLength={2000}
              onChange={(event) =>
                onChange({
                  ...settings,
                  location: { ...settings.location, value: event.currentTarget.value },
                })
              }
            />
          )}
        </Group>
        <Checkbox
          label="Drop negatives that block their own keywords"
          description="A negative keyword that stops a keyword of its own ad group from serving is left out (reported either way)"
          checked={settings.dropBlockingNegatives}
          onChange={(event) =>
            onChange({ ...settings, dropBlockingNegatives: event.currentTarget.checked })
          }
        />
        <Checkbox
          label="Keep a keyword only in its first ad group"
          description="The same keyword and match type in several ad groups of a campaign compete for the same searches: later ad groups leave it out (reported either way)"
          checked={settings.keepKeywordInFirstAdGroup}
          onChange={(event) =>
            onChange({ ...settings, keepKeywordInFirstAdGroup: event.currentTarget.checked })
          }
        />
        <Group gap="xs" justify="space-between" mt={4}>
          <Text size="sm" fw={600} id="optional-settings-heading">
            Optional settings
          </Text>
          <Button size="xs" variant="default" onClick={() => setIsAddOpen(true)}>
            Add Setting
          </Button>
        </Group>
        {optional.length === 0 ? (
          <Text size="xs" c="dimmed">
            None yet. Each one becomes a column of the Campaigns output (e.g. Networks).
          </Text>
        ) : null}
        <ul className="campaign-settings__list" aria-labelledby="optional-settings-heading">
          {optional.map((setting, i) => (
            <li key={i} className="campaign-settings__item">
              <Checkbox
                aria-label={`Include ${setting.name}`}
                checked={setting.selected}
                onChange={(event) =>
                  setOptional(
                    optional.map((s, j) =>
                      j === i ? { ...s, selected: event.currentTarget.checked } : s,
                    ),
                  )
                }
              />
              <Tooltip label={setting.name} disabled={setting.name.length <= 20} openDelay={200}>
                <Text size="sm" className="campaign-settings__name" title={setting.name}>
                  {shortSettingName(setting.name)}
                </Text>
              </Tooltip>
              <TextInput
                size="xs"
                className="campaign-settings__value"
                aria-label={`Value of ${setting.name}`}
                placeholder="Value, e.g. Google search or {var1}"
                value={setting.value}
                maxLength={2000}
                onChange={(event) =>
                  setOptional(
                    optional.map((s, j) =>
                      j === i ? { ...s, value: event.currentTarget.value } : s,
                    ),
                  )
                }
              />
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`Rename ${setting.name}`}
                onClick={() => setRenaming(i)}
              >
                Rename
              </Button>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove ${setting.name}`}
                onClick={() => setOptional(optional.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </li>
          ))}
        </ul>
      </Stack>
      <SettingNameModal
        opened={isAddOpen}
        title="New Setting"
        initialName=""
        submitLabel="Add New"
        validate={(name) =>
          isSettingNameTaken(optional, name) ? SETTING_MESSAGES.existsOnAdd : null
        }
        onClose={() => setIsAddOpen(false)}
        onSubmit={(name) => {
          setOptional([...optional, { name, value: '', selected: true }]);
          setIsAddOpen(false);
        }}
      />
      <SettingNameModal
        opened={renaming !== null}
        title="Rename Setting"
        initialName={renaming === null ? '' : (optional[renaming]?.name ?? '')}
        submitLabel="Rename"
        validate={(name) =>
          isSettingNameTaken(optional, name, renaming ?? undefined)
            ? SETTING_MESSAGES.existsOnRename
            : null
        }
        onClose={() => setRenaming(null)}
        onSubmit={(name) => {
          if (renaming !== null)
            setOptional(optional.map((s, j) => (j === renaming ? { ...s, name } : s)));
          setRenaming(null);
        }}
      />
    </div>
  );
}
