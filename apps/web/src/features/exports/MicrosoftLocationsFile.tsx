import { useEffect, useState } from 'react';
import { Anchor, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { useSession } from '../../state/useSession.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import {
  indexedDbMicrosoftLocations,
  microsoftLocationsFileProblem,
  type MicrosoftLocationsInfo,
  type MicrosoftLocationsStorage,
} from './microsoftLocationsStore.ts';
import './MicrosoftLocationsFile.css';

/** A file's size as a person reads it: `10.4 MB`, or `2 KB` below a megabyte. */
const sizeText = (bytes: number): string =>
  bytes < 1_000_000
    ? `${Math.max(1, Math.round(bytes / 1000))} KB`
    : `${(bytes / 1_000_000).toFixed(1)} MB`;

/** Texts of the Microsoft locations file control. */
export const MICROSOFT_LOCATIONS_TEXTS = {
  label: 'Microsoft locations file',
  placeholder: 'Choose the CSV file',
  help: "Microsoft Advertising's geographical locations file (the GetGeoLocationsFileUrl download, or the developer portal): with it, Download for Microsoft Advertising writes your campaigns' locations. Kept in this browser.",
  guide: "Microsoft's guide",
  guideUrl: 'https://learn.microsoft.com/en-us/advertising/guides/geographical-location-codes',
  kept: (info: MicrosoftLocationsInfo) =>
    `${info.name} (${sizeText(info.size)}), kept in this browser: Download for Microsoft Advertising maps your campaigns' locations by it.`,
  remove: 'Remove Microsoft locations file',
  reading: 'Checking the file…',
  cannotKeep: (why: string) => `This browser could not keep the file: ${why}`,
} as const;

/**
 * Microsoft Advertising's geographical locations file for the Microsoft downloads: chosen once,
 * checked (its header), kept in this browser for the signed-in person (`storage`), removable.
 */
export function MicrosoftLocationsFile({
  storage = indexedDbMicrosoftLocations,
}: {
  storage?: MicrosoftLocationsStorage;
}) {
  const userId = useSession()?.user._id;
  // undefined: not read yet; null: none kept.
  const [kept, setKept] = useState<MicrosoftLocationsInfo | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    if (!userId) return;
    let isCurrent = true;
    void storage.find(userId).then((found) => {
      if (isCurrent)
        setKept(found ? { name: found.name, size: found.size, keptAt: found.keptAt } : null);
    });
    return () => {
      isCurrent = false;
    };
  }, [storage, userId]);

  if (!userId || kept === undefined) return null;

  async function handleChoose(file: File | null) {
    if (!file || !userId) return;
    setBusy(true);
    setProblem(null);
    try {
      const wrong = await microsoftLocationsFileProblem(file);
      if (wrong) {
        setProblem(wrong);
        return;
      }
      const info = { name: file.name, size: file.size, keptAt: Date.now() };
      await storage.put({ ...info, userId, file });
      setKept(info);
    } catch (error) {
      setProblem(MICROSOFT_LOCATIONS_TEXTS.cannotKeep(describeLocalFailure(error)));
    } finally {
      setBusy(false);
    }
  }

  async function handleRemove() {
    if (!userId) return;
    setBusy(true);
    try {
      await storage.remove(userId);
      setKept(null);
      setProblem(null);
    } catch (error) {
      setProblem(MICROSOFT_LOCATIONS_TEXTS.cannotKeep(describeLocalFailure(error)));
    } finally {
      setBusy(false);
    }
  }

  const guide = (
    <Anchor href={MICROSOFT_LOCATIONS_TEXTS.guideUrl} target="_blank" rel="noreferrer" size="xs">
      {MICROSOFT_LOCATIONS_TEXTS.guide}
    </Anchor>
  );

  if (kept)
    return (
      <Stack gap={2} className="microsoft-locations">
        <Text size="sm" fw={500}>
          {MICROSOFT_LOCATIONS_TEXTS.label}
        </Text>
        <Group gap="xs" wrap="wrap" align="center">
          <Text size="xs" c="dimmed" className="microsoft-locations__kept">
            {MICROSOFT_LOCATIONS_TEXTS.kept(kept)}
          </Text>
          <Button
            size="compact-xs"
            variant="default"
            loading={isBusy}
            onClick={() => void handleRemove()}
          >
            {MICROSOFT_LOCATIONS_TEXTS.remove}
          </Button>
        </Group>
        {problem ? (
          <Text size="xs" c="red.8" role="alert">
            {problem}
          </Text>
        ) : null}
      </Stack>
    );

  return (
    <FileInput
      className="microsoft-locations"
      classNames={{ placeholder: 'microsoft-locations__placeholder' }}
      size="xs"
      label={MICROSOFT_LOCATIONS_TEXTS.label}
      description={
        <>
          {MICROSOFT_LOCATIONS_TEXTS.help} {guide}
        </>
      }
      placeholder={
        isBusy ? MICROSOFT_LOCATIONS_TEXTS.reading : MICROSOFT_LOCATIONS_TEXTS.placeholder
      }
      accept=".csv,text/csv"
      value={null}
      disabled={isBusy}
      error={problem}
      onChange={(file) => void handleChoose(file)}
    />
  );
}
