import { expect, test } from '../fixtures.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a visitor combines seeds with a link and copies the table', async ({ page }) => {
  await page.goto('/combinations');
  await expect(page.getByRole('heading', { name: 'Keyword Combiner' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Root' }).fill('shoes\nboots');
  await page.getByRole('textbox', { name: 'Modifier' }).fill('red\nblue');
  await page.getByRole('textbox', { name: 'Var 1' }).fill('cheap\nnew\nused');
  await expect(page.getByText('Combine will add 12 rows.')).toBeVisible();

  await page.getByRole('button', { name: 'Link Root and Modifier' }).click();
  await expect(page.getByRole('button', { name: 'Link Root and Modifier' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByText('Combine will add 6 rows.')).toBeVisible();
  await page.getByRole('button', { name: 'Combine', exact: true }).click();

  const grid = page.getByRole('grid', { name: 'Combinations' });
  await expect(grid.getByRole('textbox', { name: 'Root, row 1' })).toHaveValue('shoes');
  await expect(grid.getByRole('textbox', { name: 'Modifier, row 1' })).toHaveValue('red');
  await expect(grid.getByRole('textbox', { name: 'Root, row 6' })).toHaveValue('boots');
  await expect(grid.getByRole('textbox', { name: 'Modifier, row 6' })).toHaveValue('blue');
  await expect(grid.getByRole('textbox', { name: 'Var 1, row 6' })).toHaveValue('used');

  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Table contents copied to clipboard!' }),
  ).toBeVisible();
  const readClipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await expect.poll(readClipboard).not.toBe('');
  const copied = await readClipboard();
  expect(copied.split('\n')).toEqual([
    'Root\tModifier\tVar 1',
    'shoes\tred\tcheap',
    'shoes\tred\tnew',
    'shoes\tred\tused',
    'boots\tblue\tcheap',
    'boots\tblue\tnew',
    'boots\tblue\tused',
  ]);
});

test('linked columns of unequal length are refused with the spec message', async ({ page }) => {
  await page.goto('/combinations');
  await page.getByRole('textbox', { name: 'Var 1' }).fill('a\nb');
  await page.getByRole('textbox', { name: 'Var 2' }).fill('x');
  await page.getByRole('button', { name: 'Link Var 1 and Var 2' }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Linked variables must have the same number of rows' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Combine', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Unlink All' }).click();
  await expect(page.getByText('Combine will add 2 rows.')).toBeVisible();
});
