import { expect, test, uniqueEmail } from '../fixtures.ts';
import { signUp } from './support.ts';

/**
 * Enough rows that a generation shows its progress for a few seconds: the one the person
 * cancels. The output kept and the generation after the cancel are of a few rows: what they
 * prove is that an output stays and the next run ends, not their size (three full generations
 * of 80,000 rows made this the costliest journey).
 */
const ROWS = 80_000;
const ROWS_TEXT = ROWS.toLocaleString('en-US');
/** The output summary of a generation from `rows` rows (two keywords per row). */
function summaryOf(rows: number): RegExp {
  return new RegExp(
    `^From ${rows.toLocaleString('en-US')} rows: ${(rows * 2).toLocaleString('en-US')} keywords, `,
  );
}

test.setTimeout(180_000);

test('a person cancels a running generation, keeps the output they had and generates again', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('cancel'), 'cancel-password-1');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('Cancel client');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');

  const lines = ['Root,Modifier,Final URL'];
  for (let i = 1; i <= ROWS; i += 1)
    lines.push(`brand ${i % 97},model ${i},https://shop.example.com/p/${i}`);
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'feed.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lines.join('\n')),
  });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Imported ${ROWS_TEXT} rows.` })
      .first(),
  ).toBeVisible({ timeout: 60_000 });

  await page.getByRole('button', { name: 'New Template' }).click();
  const templateDialog = page.getByRole('dialog', { name: 'New Template' });
  await templateDialog.getByLabel('Template name').fill('Models');
  await templateDialog.getByRole('button', { name: 'Add New' }).click();
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod} - {mt}');
  for (const [i, matchType] of ['Broad', 'Exact'].entries()) {
    await page.getByRole('button', { name: 'Add Keyword' }).click();
    await page.getByLabel(`Keyword ${i + 1}`, { exact: true }).fill('{root} {mod}');
    await page.getByLabel(`Match type ${i + 1}`, { exact: true }).selectOption(matchType);
  }
  const selectAll = page.getByRole('checkbox', { name: 'Select all rows' });
  const selectRow = (row: number) =>
    page.getByRole('checkbox', { name: `Select row ${row}`, exact: true });

  const generate = page.getByRole('button', { name: 'Generate Keywords or Output' });
  const progress = page.getByRole('progressbar', { name: 'Generation progress' });
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
  const summary = page.getByRole('status').filter({ hasText: /^From / });
  const keywords = page.getByRole('table', { name: 'Keywords', exact: true });

  // A first output, of two rows.
  await selectRow(1).check();
  await selectRow(2).check();
  await expect(page.getByText('2 rows selected')).toBeVisible();
  await generate.click();
  await expect(summary).toHaveText(summaryOf(2), { timeout: 60_000 });
  const firstSummary = await summary.textContent();
  await expect(keywords.getByRole('row').nth(1)).toContainText('brand 1 - Search');

  // Every row: generating shows progress; Cancel stops it and the first output stays.
  await selectAll.check();
  await expect(page.getByText(`${ROWS_TEXT} rows selected`)).toBeVisible();
  await generate.click();
  await expect(progress).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /^(Reading rows|Generating)… \d+%$/ }),
  ).toBeVisible();
  await expect(generate).toBeDisabled();
  await cancel.click();
  await expect(progress).toHaveCount(0);
  await expect(cancel).toHaveCount(0);
  await expect(generate).toBeEnabled();
  await expect(summary).toHaveText(firstSummary ?? '');
  await expect(keywords.getByRole('row').nth(1)).toContainText('brand 1 - Search');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // And the next generation, of three other rows, runs to its end.
  await selectAll.uncheck();
  for (const row of [2, 3, 4]) await selectRow(row).check();
  await expect(page.getByText('3 rows selected')).toBeVisible();
  await generate.click();
  await expect(summary).toHaveText(summaryOf(3), { timeout: 60_000 });
  await expect(progress).toHaveCount(0);
  await expect(keywords.getByRole('row').nth(1)).toContainText('brand 2 - Search');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
