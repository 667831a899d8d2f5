import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedGrid } from './FeedGrid.tsx';
import { storeWithRows } from './testing/storeWithRows.ts';

afterEach(cleanup);

function setup(rows: string[][]) {
  const store = storeWithRows(rows, () => 'id');
  const user = userEvent.setup();
  render(<FeedGrid store={store} />);
  return { store, user };
}

const cell = (column: string, row: number) =>
  screen.getByRole('textbox', { name: `${column}, row ${row}` });

describe('FeedGrid', () => {
  it('renders a grid with the spec columns and named cells', () => {
    setup([['shoes', 'red', '', '', '', 'https://a.test']]);
    const grid = screen.getByRole('grid', { name: 'Feed rows' });
    expect(grid.getAttribute('aria-rowcount')).toBe('2');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      '',
      '#',
      'Root',
      'Modifier',
      'Var 1',
      'Var 2',
      'Var 3',
      'Final URL',
      'Status',
      'Delete',
    ]);
    expect((cell('Root', 1) as HTMLInputElement).value).toBe('shoes');
    expect(cell('Root', 1).getAttribute('maxlength')).toBe('30');
    // Issue 36: a Final URL is never cut, so its input has no maxlength.
    expect(cell('Final URL', 1).getAttribute('maxlength')).toBeNull();
    // An empty Status reads as active, and says so.
    expect((cell('Status', 1) as HTMLInputElement).value).toBe('');
    expect(cell('Status', 1).getAttribute('placeholder')).toBe('active');
    expect(cell('Root', 1).getAttribute('placeholder')).toBeNull();
  });

  it('commits a trimmed edit on Enter and moves down; Escape cancels', async () => {
    const { store, user } = setup([['a'], ['b']]);
    await user.click(cell('Modifier', 1));
    await user.keyboard('  red  {Enter}');
    expect(store.getCell(store.getViewSlot(0), 1)).toBe('red');
    expect(document.activeElement).toBe(cell('Modifier', 2));
    await user.keyboard('blue{Escape}');
    expect((cell('Modifier', 2) as HTMLInputElement).value).toBe('');
    expect(store.getCell(store.getViewSlot(1), 1)).toBe('');
  });

  it('is one Tab stop: the active cell has tabIndex 0, arrows move it, Tab leaves the grid', async () => {
    const { user } = setup([['a'], ['b']]);
    const tabStops = () =>
      Array.from(
        screen.getByRole('grid').querySelectorAll('[tabindex="0"]'),
        (element) => element.getAttribute('aria-label') ?? element.textContent,
      );
    expect(tabStops()).toEqual(['Root, row 1']);
    act(() => screen.getByRole('button', { name: 'Add Row' }).focus());
    await user.tab();
    expect(document.activeElement).toBe(cell('Root', 1));
    await user.keyboard('{ArrowDown}{ArrowRight}');
    expect(document.activeElement).toBe(cell('Modifier', 2));
    expect(tabStops()).toEqual(['Modifier, row 2']);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('columnheader', { name: 'Modifier' }));
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await user.keyboard('{Control>}{End}{/Control}');
    expect(document.activeElement).toBe(cell('Status', 2));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(cell('Final URL', 2));
    await user.tab();
    expect(document.body.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('grid').contains(document.activeElement)).toBe(false);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(cell('Final URL', 2));
  });

  it('selects rows with Shift+Space, Shift+Up/Down and Shift+click', async () => {
    const { store, user } = setup([['a'], ['b'], ['c'], ['d'], ['e']]);
    const selectedRoots = () => [...store.selectedRows()].map((row) => row[0]);
    await user.click(cell('Root', 2));
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(selectedRoots()).toEqual(['b', 'c', 'd']);
    expect(document.activeElement).toBe(cell('Root', 4));
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(selectedRoots()).toEqual(['b', 'c']);
    await user.keyboard('{Shift>}{ArrowUp}{ArrowUp}{/Shift}');
    expect(selectedRoots()).toEqual(['a', 'b']);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{Shift>} {/Shift}');
    expect(selectedRoots()).toEqual(['a', 'b', 'e']);
    expect((cell('Root', 5) as HTMLInputElement).value).toBe('e');
    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    expect(selectedRoots()).toEqual(['b', 'e']);
    await user.keyboard('{Shift>}');
    await user.click(cell('Var 1', 3));
    await user.keyboard('{/Shift}');
    expect(selectedRoots()).toEqual(['a', 'b', 'c', 'e']);
    expect(document.activeElement).toBe(cell('Var 1', 3));
  });

  it('adds a row on Enter in the last row and moves to it', async () => {
    const { store, user } = setup([['a'], ['b']]);
    await user.click(cell('Modifier', 2));
    await user.keyboard('red{Enter}');
    expect(store.rowCount).toBe(3);
    expect(store.getCell(store.getViewSlot(1), 1)).toBe('red');
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(document.activeElement).toBe(cell('Modifier', 3));
  });

  it('selects all, shows Delete (n) and deletes; undo brings the rows back', async () => {
    const { store, user } = setup([['a'], ['b'], ['c']]);
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    await user.click(screen.getByRole('button', { name: 'Delete (3)' }));
    expect(store.rowCount).toBe(0);
    expect(screen.getByText('Deleted 3 rows.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(store.rowCount).toBe(3);
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect(screen.getByRole('button', { name: 'Delete (1)' })).toBeTruthy();
    expect(
      (screen.getByRole('checkbox', { name: 'Select all rows' }) as HTMLInputElement).indeterminate,
    ).toBe(true);
  });

  it('pastes a tab-separated block at the focused cell, skipping a header line', async () => {
    const { store, user } = setup([['a']]);
    await user.click(cell('Modifier', 1));
    const clipboardData = { getData: () => 'Modifier\tVar 1\nred\tbig\nblue\tsmall' };
    fireEvent.paste(cell('Modifier', 1), { clipboardData });
    expect(store.rowCount).toBe(2);
    expect(store.getRowCells(store.getViewSlot(1))).toEqual(['', 'blue', 'small', '', '', '', '']);
    expect(screen.getByText('Pasted 2 rows (1 added).')).toBeTruthy();
  });

  it('says how many rows a paste replaced and offers Undo beside it', async () => {
    const { store, user } = setup([['nike', 'air'], ['puma'], ['']]);
    await user.click(cell('Root', 1));
    fireEvent.paste(cell('Root', 1), {
      clipboardData: { getData: () => 'adidas\nreebok\nasics\nvans' },
    });
    expect(
      screen.getByText('Pasted 4 rows (1 added): 2 rows that had values were replaced.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo paste' }));
    expect(
      [...Array(store.rowCount).keys()].map((i) => store.getCell(store.getSlotAt(i), 0)),
    ).toEqual(['nike', 'puma', '']);
    expect(screen.queryByRole('button', { name: 'Undo paste' })).toBeNull();
  });

  it('pastes Final URL and Status cells, and takes a Status typed in its cell', async () => {
    const { store, user } = setup([['a'], ['b']]);
    await user.click(cell('Final URL', 1));
    const clipboardData = { getData: () => 'https://s.test\tpaused' };
    fireEvent.paste(cell('Final URL', 1), { clipboardData });
    expect(store.getRowCells(store.getViewSlot(0))).toEqual([
      'a',
      '',
      '',
      '',
      '',
      'https://s.test',
      'paused',
    ]);
    await user.click(cell('Status', 2));
    await user.keyboard('Out of stock{Enter}');
    expect(store.getCell(store.getViewSlot(1), 6)).toBe('Out of stock');
  });

  it('copies selected rows as tab-separated text', async () => {
    const { user } = setup([
      ['a', 'x'],
      ['b', 'y'],
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    let copied = '';
    const clipboardData = { setData: (_type: string, text: string) => (copied = text) };
    fireEvent.copy(cell('Root', 1), { clipboardData });
    expect(copied).toBe('b\ty\t\t\t\t\t');
  });

  it('copies the Status cell last', async () => {
    const { user } = setup([['a', 'x', '', '', '', 'https://a.test', 'paused']]);
    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    let copied = '';
    const clipboardData = { setData: (_type: string, text: string) => (copied = text) };
    fireEvent.copy(cell('Root', 1), { clipboardData });
    expect(copied).toBe('a\tx\t\t\t\thttps://a.test\tpaused');
  });

  it('adds a row and focuses its Root cell after 100 ms', async () => {
    const { store, user } = setup([['a']]);
    await user.click(screen.getByRole('button', { name: 'Add Row' }));
    expect(store.rowCount).toBe(2);
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(document.activeElement).toBe(cell('Root', 2));
  });

  it('filters rows from the filter box', async () => {
    const { user } = setup([['red'], ['blue'], ['dark red']]);
    await user.type(screen.getByRole('searchbox', { name: 'Filter rows' }), 'RED');
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.getByText('2 of 3 rows')).toBeTruthy();
    // The rows keep the feed's own numbers: 'dark red' is still row 3.
    expect((cell('Root', 3) as HTMLInputElement).value).toBe('dark red');
    expect(screen.queryByRole('textbox', { name: 'Root, row 2' })).toBeNull();
  });
});

/**
 * What a browser does with its own page-wide undo history: a cancelable `beforeinput` at the
 * input it replays into, then (unless refused) the replayed text and an `input` event.
 */
function replayBrowserHistory(input: HTMLInputElement, inputType: string, text: string): boolean {
  const event = new InputEvent('beforeinput', { inputType, bubbles: true, cancelable: true });
  let isAllowed = true;
  act(() => {
    isAllowed = input.dispatchEvent(event);
  });
  if (!isAllowed) return false;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setValue.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  return true;
}

describe("FeedGrid and the browser's own undo history", () => {
  it('refuses a browser undo replayed into a cell from elsewhere (the "NIKE EditedNike" value)', async () => {
    const { store, user } = setup([['Nike'], ['Puma']]);
    await user.click(cell('Root', 1));
    await user.keyboard('{F2}{Home}');
    // Typed at the start of "Nike"; the browser remembers this typing in its own history.
    await user.keyboard('Edited{Enter}');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    await user.click(screen.getByRole('searchbox', { name: 'Filter rows' }));
    // Ctrl+Z in the filter box: the browser replays old typing into the cell it was done in.
    const isApplied = replayBrowserHistory(
      cell('Root', 1) as HTMLInputElement,
      'historyUndo',
      'NIKE EditedNike',
    );
    expect(isApplied).toBe(false);
    await user.click(cell('Root', 2));
    expect(store.getCell(store.getViewSlot(0), 0)).toBe('EditedNike');
    expect((cell('Root', 1) as HTMLInputElement).value).toBe('EditedNike');
  });

  it("runs the grid's own undo and redo for the Edit menu's on the focused cell", async () => {
    const { store, user } = setup([['Nike'], ['Puma']]);
    await user.click(cell('Root', 1));
    await user.keyboard('Adidas{Enter}');
    await user.click(cell('Root', 1));
    const root = cell('Root', 1) as HTMLInputElement;
    expect(replayBrowserHistory(root, 'historyUndo', 'Adida')).toBe(false);
    expect(store.getCell(store.getViewSlot(0), 0)).toBe('Nike');
    expect(root.value).toBe('Nike');
    expect(replayBrowserHistory(root, 'historyRedo', 'NikeAdidas')).toBe(false);
    expect(store.getCell(store.getViewSlot(0), 0)).toBe('Adidas');
  });
});
