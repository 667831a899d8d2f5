import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { session } from '../../state/session.ts';
import { testSession } from '../../state/testSession.ts';
import { MICROSOFT_LOCATIONS_TEXTS, MicrosoftLocationsFile } from './MicrosoftLocationsFile.tsx';
import type {
  KeptMicrosoftLocations,
  MicrosoftLocationsStorage,
} from './microsoftLocationsStore.ts';

/** The kept files in memory (IndexedDB's part; the e2e journey uses the browser's own). */
function memoryStorage(): MicrosoftLocationsStorage & {
  kept: Map<string, KeptMicrosoftLocations>;
} {
  const kept = new Map<string, KeptMicrosoftLocations>();
  return {
    kept,
    find: async (userId) => kept.get(userId),
    put: async (file) => void kept.set(file.userId, file),
    remove: async (userId) => void kept.delete(userId),
  };
}

const HEADER = 'Location Id,Bing Display Name,Location Type,Replaces,Status\n';

function renderControl(storage: MicrosoftLocationsStorage) {
  session.signIn(testSession('tok-ms'));
  const view = render(
    <MantineProvider>
      <MicrosoftLocationsFile storage={storage} />
    </MantineProvider>,
  );
  const input = () => view.container.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { input };
}

afterEach(() => {
  session.signOut('logout');
});

describe('MicrosoftLocationsFile', () => {
  it("keeps Microsoft's file for the signed-in person, and removes it", async () => {
    const storage = memoryStorage();
    const user = userEvent.setup();
    const { input } = renderControl(storage);
    const chooser = await screen.findByRole('button', { name: MICROSOFT_LOCATIONS_TEXTS.label });
    // Its one line of help, where to get the file, is its description.
    const described = chooser.getAttribute('aria-describedby') ?? '';
    expect(
      described.split(' ').map((id) => document.getElementById(id)?.textContent ?? ''),
    ).toContain(`${MICROSOFT_LOCATIONS_TEXTS.help} ${MICROSOFT_LOCATIONS_TEXTS.guide}`);

    const file = new File([`${HEADER}700002,United States,Country,,Active\n`], 'geo.csv', {
      type: 'text/csv',
    });
    await user.upload(input(), file);
    expect(await screen.findByText(/^geo\.csv \(1 KB\), kept in this browser/)).toBeTruthy();
    expect(storage.kept.get('u1')).toMatchObject({ userId: 'u1', name: 'geo.csv', file });

    await user.click(screen.getByRole('button', { name: MICROSOFT_LOCATIONS_TEXTS.remove }));
    expect(
      await screen.findByRole('button', { name: MICROSOFT_LOCATIONS_TEXTS.label }),
    ).toBeTruthy();
    expect(storage.kept.size).toBe(0);
  });

  it("refuses a file that is not Microsoft's, keeping nothing", async () => {
    const storage = memoryStorage();
    const user = userEvent.setup();
    const { input } = renderControl(storage);
    await screen.findByRole('button', { name: MICROSOFT_LOCATIONS_TEXTS.label });
    await user.upload(input(), new File(['Criteria ID,Name\n2840,US\n'], 'google.csv'));
    expect(
      await screen.findByText(
        "This file is not Microsoft's geographical locations file (format version 2.0): no Location Id, Bing Display Name, Location Type, Status column.",
      ),
    ).toBeTruthy();
    expect(storage.kept.size).toBe(0);
  });

  it('shows what is kept from an earlier visit', async () => {
    const storage = memoryStorage();
    storage.kept.set('u1', {
      userId: 'u1',
      name: 'GeoLocations.csv',
      size: 10_400_000,
      keptAt: 1,
      file: new Blob([HEADER]),
    });
    renderControl(storage);
    expect(
      await screen.findByText(/^GeoLocations\.csv \(10\.4 MB\), kept in this browser/),
    ).toBeTruthy();
  });
});
