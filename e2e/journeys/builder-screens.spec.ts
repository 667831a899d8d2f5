import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { signUp } from './support.ts';

// Screenshots of the builder, lists and combinations screens at 390 px and 1440 px for a visual
// review. Runs only when SCREENS_OUT names a folder:
// SCREENS_OUT=/tmp/screens npx playwright test journeys/builder-screens
const out = process.env.SCREENS_OUT;
test.skip(!out, 'SCREENS_OUT is not set');

async function fillBuilder(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New Client' }).click();
  await page.getByRole('dialog', { name: 'New Client' }).getByLabel('Client name').fill('Acme');
  await page
    .getByRole('dialog', { name: 'New Client' })
    .getByRole('button', { name: 'Add New' })
    .click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  const combiner = page.getByRole('region', { name: 'Combiner' });
  await combiner.getByRole('textbox', { name: 'Root' }).fill('nike\npuma\nadidas');
  await combiner.getByRole('textbox', { name: 'Modifier' }).fill('running shoes\nsneakers');
  await combiner.getByRole('button', { name: 'Combine', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Root, row 6', exact: true })).toBeVisible();
}

for (const width of [390, 1440]) {
  test(`screens at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/combinations');
    await page.getByRole('textbox', { name: 'Root' }).fill('shoes\nboots');
    await page.getByRole('textbox', { name: 'Modifier' }).fill('red\nblue');
    await page.getByRole('button', { name: 'Combine', exact: true }).click();
    await page.screenshot({ path: `${out}/combinations-${width}.png`, fullPage: true });

    await signUp(page, uniqueEmail(`screens${width}`), 'screens-password-1');
    await page.screenshot({ path: `${out}/builder-empty-${width}.png`, fullPage: true });
    await fillBuilder(page);
    await expect(
      page.getByRole('status').filter({ hasText: 'Unsaved changes kept in this browser' }),
    ).toBeVisible();
    await page.screenshot({ path: `${out}/builder-${width}.png`, fullPage: true });

    await page.goto('/lists');
    await page.getByRole('button', { name: 'New Feed' }).click();
    await page.getByRole('dialog', { name: 'New Feed' }).getByLabel('Feed name').fill('stock');
    await page
      .getByRole('dialog', { name: 'New Feed' })
      .getByRole('button', { name: 'Add New' })
      .click();
    await expect(page.getByRole('dialog', { name: 'New Feed' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Root, row 1', exact: true })).toBeVisible();
    await page.screenshot({ path: `${out}/lists-tables-${width}.png`, fullPage: true });
    await page.getByRole('tab', { name: 'Lists' }).click();
    await page.getByRole('button', { name: 'New List' }).click();
    await page.getByRole('dialog', { name: 'New List' }).getByLabel('List name').fill('cities');
    await page
      .getByRole('dialog', { name: 'New List' })
      .getByRole('button', { name: 'Add New' })
      .click();
    await expect(page.getByRole('dialog', { name: 'New List' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Root, row 1', exact: true })).toBeVisible();
    await page.screenshot({ path: `${out}/lists-lists-${width}.png`, fullPage: true });
  });
}
