import { describe, expect, it, vi } from 'vitest';
import type { ClientRevisions } from '@adloom/contract';
import { newCampaignTemplate, newRsaTemplate } from '@adloom/engine';
import { ApiError } from '../../api/errors.ts';
import { createMemoryDraftStorage, type DraftStorage } from '../../state/revisionedSet/index.ts';
import type { TemplateDraft } from './templateDrafts.ts';
import { TemplateSets } from './templateSets.ts';

const revisions: ClientRevisions = {
  feeds: 1,
  campaignTemplates: 3,
  adTemplates: 0,
  rsaTemplates: 0,
  performanceMaxTemplates: 0,
  extensionTemplates: 0,
};
const empty = {
  campaignTemplates: [newCampaignTemplate('Brand')],
  adTemplates: [],
  rsaTemplates: [],
  performanceMaxTemplates: [],
  extensionTemplates: [],
};

function setup(save = vi.fn()) {
  const drafts = createMemoryDraftStorage<TemplateDraft>();
  const notify = vi.fn();
  const sets = new TemplateSets({
    drafts,
    notify,
    onUnauthorized: vi.fn(),
    loadBundle: () =>
      Promise.resolve({
        ...empty,
        campaignTemplates: [newCampaignTemplate('Theirs')],
        revisions: { ...revisions, campaignTemplates: 4 },
      }),
    save,
  });
  return { sets, drafts, notify, save };
}

/** The sets of another visit, over the same drafts. */
function reopened(drafts: DraftStorage<TemplateDraft>): TemplateSets {
  return new TemplateSets({
    drafts,
    notify: vi.fn(),
    onUnauthorized: vi.fn(),
    loadBundle: vi.fn(),
  });
}

describe('TemplateSets', () => {
  it('makes names unique, copies without the id, and saves the kind with its revision', async () => {
    const save = vi.fn((_kind: string, body: { templates: unknown[]; revision?: number }) =>
      Promise.resolve({ name: 'Acme', templates: body.templates, revision: 4 }),
    );
    const { sets, notify } = setup(save);
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    const campaigns = sets.get('campaignTemplates');
    expect(campaigns.state.get().active).toBe('Brand');
    expect(campaigns.add(newCampaignTemplate('Brand'))).toBe('Brand (1)');
    expect(campaigns.copyActive()).toBe('Brand (1) (1)');
    expect(campaigns.add(newCampaignTemplate('Brand'))).toBe('Brand (2)');
    expect(campaigns.state.get().isDirty).toBe(true);
    expect(sets.get('rsaTemplates').state.get().isDirty).toBe(false);
    expect(await campaigns.save()).toBe('saved');
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]?.[0]).toBe('campaignTemplates');
    expect(save.mock.calls[0]?.[1]).toMatchObject({ name: 'Acme', revision: 3 });
    expect(campaigns.state.get()).toMatchObject({ isDirty: false, revision: 4 });
    expect(notify).toHaveBeenCalledWith('success', 'Templates successfully updated');
  });

  it('turns a 409 into a conflict and loads the newer set on request', async () => {
    const save = vi.fn(() =>
      Promise.reject(
        new ApiError({ status: 409, code: 'conflict', message: 'changed', path: '/x' }),
      ),
    );
    const { sets } = setup(save);
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    const campaigns = sets.get('campaignTemplates');
    campaigns.update({ ...newCampaignTemplate('ignored'), campaign: '{root}' });
    expect(campaigns.getActive()?.name).toBe('Brand');
    expect(await campaigns.save()).toBe('conflict');
    expect(campaigns.state.get().conflict?.revision).toBe(4);
    expect(await campaigns.resolveConflict('theirs')).toBe('loaded');
    expect(campaigns.state.get()).toMatchObject({ isDirty: false, revision: 4, active: 'Theirs' });
  });

  it('keeps unsaved edits as a draft and offers them on the next open', async () => {
    const { sets, drafts } = setup();
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    sets.get('rsaTemplates').add(newRsaTemplate('Ads'));
    expect(sets.isDraftKept.get()).toBe(false);
    await sets.flushDraft();
    expect((await drafts.find('u|client|Acme'))?.kinds.rsaTemplates?.templates).toHaveLength(1);
    expect(sets.isDraftKept.get()).toBe(true);
    sets.get('rsaTemplates').add(newRsaTemplate('More ads'));
    expect(sets.isDraftKept.get()).toBe(false);
    await sets.flushDraft();

    const again = reopened(drafts);
    await again.open('u|client|Acme', 'Acme', empty, revisions);
    expect(again.draftOffer.get()).toMatchObject({ isBehind: false });
    again.restoreDraft();
    expect(again.get('rsaTemplates').state.get()).toMatchObject({
      isDirty: true,
      active: 'More ads',
    });
    expect(again.get('campaignTemplates').state.get().isDirty).toBe(false);
  });

  it('drops the draft as soon as a save leaves the sets clean, and never offers a draft equal to the saved sets', async () => {
    const save = vi.fn((_kind: string, body: { templates: unknown[] }) =>
      Promise.resolve({ name: 'Acme', templates: body.templates, revision: 4 }),
    );
    const { sets, drafts } = setup(save);
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    const campaigns = sets.get('campaignTemplates');
    campaigns.update({ ...newCampaignTemplate('Brand'), campaign: '{root}' });
    await sets.flushDraft();
    expect(await drafts.find('u|client|Acme')).toBeDefined();
    await campaigns.save();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await drafts.find('u|client|Acme')).toBeUndefined();

    // A draft left behind that holds what the server has is dropped, not offered.
    const saved = campaigns.state.get().templates;
    await drafts.put({
      key: 'u|client|Acme',
      savedAt: 1,
      kinds: { campaignTemplates: { templates: saved, baseRevision: 3, active: 'Brand' } },
    });
    const again = reopened(drafts);
    await again.open(
      'u|client|Acme',
      'Acme',
      { ...empty, campaignTemplates: saved },
      { ...revisions, campaignTemplates: 4 },
    );
    expect(again.draftOffer.get()).toBeNull();
    expect(await drafts.find('u|client|Acme')).toBeUndefined();
  });

  it('keeps the edits in the browser at once when a save fails', async () => {
    const save = vi.fn(() =>
      Promise.reject(new ApiError({ status: 500, message: 'down', path: '/x' })),
    );
    const { sets, drafts, notify } = setup(save);
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    sets.get('rsaTemplates').add(newRsaTemplate('Ads'));
    expect(await sets.get('rsaTemplates').save()).toBe('failed');
    expect(notify).toHaveBeenCalledWith('error', 'Unable to save templates: down', 500);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await drafts.find('u|client|Acme'))?.kinds.rsaTemplates?.templates).toHaveLength(1);
    expect(sets.isDraftKept.get()).toBe(true);
  });

  it('shows a restored draft as kept in this browser', async () => {
    const { sets, drafts } = setup();
    await sets.open('u|client|Acme', 'Acme', empty, revisions);
    sets.get('rsaTemplates').add(newRsaTemplate('Ads'));
    await sets.flushDraft();
    const again = reopened(drafts);
    await again.open('u|client|Acme', 'Acme', empty, revisions);
    again.restoreDraft();
    expect(again.get('rsaTemplates').state.get().isDirty).toBe(true);
    expect(again.isDraftKept.get()).toBe(true);
  });

  it('saves unsaved kinds quietly every 5 minutes', async () => {
    vi.useFakeTimers();
    try {
      const save = vi.fn((_kind: string, body: { templates: unknown[] }) =>
        Promise.resolve({ name: 'Acme', templates: body.templates, revision: 4 }),
      );
      const { sets, notify } = setup(save);
      await sets.open('u|client|Acme', 'Acme', empty, revisions);
      sets.startAutosave();
      sets.get('rsaTemplates').add(newRsaTemplate('Ads'));
      await vi.advanceTimersByTimeAsync(4 * 60_000);
      expect(save).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(save).toHaveBeenCalledTimes(1);
      expect(save.mock.calls[0]?.[0]).toBe('rsaTemplates');
      expect(sets.get('rsaTemplates').state.get().isDirty).toBe(false);
      expect(notify).not.toHaveBeenCalled();
      sets.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
