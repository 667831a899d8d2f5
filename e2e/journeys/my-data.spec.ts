import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expect, test } from '../fixtures.ts';
import { cell, startWithClient } from './support.ts';

/** Clicks `button` and answers the downloaded zip's name and its files as text. */
async function downloadZip(page: Page, click: () => Promise<void>) {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  const bytes = readFileSync(await file.path());
  const files = Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(bytes))).map(([name, data]) => [
      name,
      new TextDecoder().decode(data),
    ]),
  );
  return { name: file.suggestedFilename(), files };
}

for (const width of [1440, 390]) {
  test(`Download my data gives every client, on the Account page and before deleting (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await startWithClient(page, `mydata${width}`);
    await cell(page, 'Root', 1).fill('nike');
    await page.getByRole('button', { name: 'Save Feeds' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

    await page.goto('/account');
    const { name, files } = await downloadZip(page, () =>
      page.getByRole('button', { name: 'Download My Data' }).click(),
    );
    expect(name).toMatch(/^adloom-data-\d{8}\.zip$/);
    const folder = `clients/mydata${width} client`;
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['README.txt', 'account.json', `${folder}/client.json`]),
    );
    expect(files[`${folder}/feeds/brands.csv`]).toContain('Root,Modifier');
    expect(files[`${folder}/feeds/brands.csv`]).toContain('nike');

    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText('Take a copy first');
    const again = await downloadZip(page, () =>
      dialog.getByRole('button', { name: 'Download My Data' }).click(),
    );
    expect(Object.keys(again.files)).toContain(`${folder}/client.json`);
    await expect(dialog).toBeVisible();
    if (process.env.SCREENS_OUT)
      await page.screenshot({ path: `${process.env.SCREENS_OUT}/account-delete-${width}.png` });
  });
}
