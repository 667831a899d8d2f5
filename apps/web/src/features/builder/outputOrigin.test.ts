import { describe, expect, it } from 'vitest';
import { newCampaignTemplate, type CampaignTemplate } from '@adloom/engine';
import { createStore, type Store } from '../../state/store.ts';
import {
  describeOrigin,
  describeStale,
  originNow,
  rowsKeyOf,
  staleReasons,
} from '../exports/outputOrigin.ts';
import { TrackedFeedStore } from './trackedFeedStore.ts';

/** The part of a builder workspace an origin reads: its feed store and the active feed. */
interface TestWorkspace {
  editor: { state: Store<{ activeFeed: string | null }>; store: TrackedFeedStore };
  select(feed: string): void;
}

// How a kept output's origin follows the builder's rows (exports/outputOrigin.ts over
// TrackedFeedStore).
function workspaceWith(feed: string): TestWorkspace {
  const store = new TrackedFeedStore();
  store.load([
    { root: 'Nike', mod: 'Shoes' },
    { root: 'Puma', mod: 'Boots' },
  ]);
  store.selectAllShown();
  const state = createStore({ activeFeed: feed as string | null });
  return { editor: { state, store }, select: (next) => state.set({ activeFeed: next }) };
}

function shoes(): CampaignTemplate {
  return { ...newCampaignTemplate('Shoes'), campaign: '{root}', adGroup: '{root} {mod}' };
}

function originOf(workspace: TestWorkspace, template: CampaignTemplate) {
  return originNow(workspace, {
    templateKind: 'campaignTemplates',
    templateLabel: 'campaign template',
    template,
    rowCount: workspace.editor.store.selectedCount,
  });
}

describe('output origins', () => {
  it('is fresh while the template and the rows are the same, whatever else is chosen', async () => {
    const workspace = workspaceWith('brands');
    const template = shoes();
    const origin = originOf(workspace, template);
    const other = { ...newCampaignTemplate('Boots'), type: 'performance' as const };
    // Another template chosen, a filter, and a copy of the template equal to it: still fresh.
    await workspace.editor.store.setFilter('Nike');
    expect(staleReasons(origin, [other, { ...template }], rowsKeyOf(workspace))).toEqual([]);
  });

  it('is stale for its template when that template is edited, renamed or deleted', () => {
    const workspace = workspaceWith('brands');
    const template = shoes();
    const origin = originOf(workspace, template);
    const rows = rowsKeyOf(workspace);
    expect(staleReasons(origin, [{ ...template, adGroup: '{mod}' }], rows)).toEqual(['template']);
    expect(staleReasons(origin, [{ ...template, name: 'Shoes 2' }], rows)).toEqual(['template']);
    expect(staleReasons(origin, [], rows)).toEqual(['template']);
    // Edited and edited back: the same content, fresh again.
    expect(staleReasons(origin, [{ ...template, adGroup: '{root} {mod}' }], rows)).toEqual([]);
  });

  it('is stale for its rows when a cell, the selection or the feed changes', () => {
    const template = shoes();
    const cases: ((w: ReturnType<typeof workspaceWith>) => void)[] = [
      (w) => w.editor.store.setCell(w.editor.store.getSlotAt(0), 0, 'Adidas'),
      (w) => w.editor.store.setSelected(w.editor.store.getSlotAt(1), false),
      (w) => w.editor.store.addRow(),
      (w) => w.select('shoes'),
    ];
    for (const change of cases) {
      const workspace = workspaceWith('brands');
      const origin = originOf(workspace, template);
      change(workspace);
      expect(staleReasons(origin, [template], rowsKeyOf(workspace))).toEqual(['rows']);
    }
    const workspace = workspaceWith('brands');
    const origin = originOf(workspace, template);
    workspace.editor.store.clearSelection();
    expect(
      describeStale(staleReasons(origin, [{ ...template, campaign: 'x' }], rowsKeyOf(workspace))),
    ).toBe('Changed since: template, rows');
  });

  it('says which template and rows made the output, and when', () => {
    const workspace = workspaceWith('brands');
    const origin = { ...originOf(workspace, shoes()), generatedAt: new Date(2026, 10, 26, 9, 5) };
    expect(describeOrigin(origin)).toBe(
      'Made from campaign template ‘Shoes’ with 2 rows of ‘brands’ at 09:05',
    );
    expect(describeOrigin({ ...origin, rowCount: 1, feedName: null }, 'Uses')).toBe(
      'Uses campaign template ‘Shoes’ with 1 row at 09:05',
    );
    expect(describeStale([])).toBeNull();
  });
});
