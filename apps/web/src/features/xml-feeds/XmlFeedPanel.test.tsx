import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import {
  API,
  VERIFY_MESSAGES,
  XML_MESSAGES,
  type BrandCategories,
  type StoredFeed,
} from '@adloom/contract';
import type { ExtensionTemplate } from '@adloom/engine';
import { notifications } from '../../state/notifications.ts';
import { createMemoryDraftStorage } from '../../state/revisionedSet/index.ts';
import { session } from '../../state/session.ts';
import { testSession } from '../../state/testSession.ts';
import type { FeedSetDraft } from '../drafts/drafts.ts';
import { FeedSetEditor } from '../builder/feedSetEditor.ts';
import { TemplateSetEditor } from '../templates/templateSetEditor.ts';
import { XML_PANEL_TEXTS, XmlFeedPanel } from './XmlFeedPanel.tsx';
import { json } from '../../api/testResponses.ts';

const FEED_URL = 'https://shop.example.com/products.xml';

/** What the shop's feed gives (`fetch-xml`'s answer). */
const ANSWER: BrandCategories = {
  Acme: { Shoes: 3, Hats: 1 },
  'Ben & Jerry’s': { Food: 2 },
  Lumen: { Home: 4 },
  '': { Garden: 1 },
};

let calls: { path: string; body: unknown }[];
/** The answer of the next `fetch-xml` calls. */
let xmlAnswer: () => Response | Promise<Response>;

/** The products out of stock: all of Acme's hats, one of Lumen's four. */
const OUT_OF_STOCK: BrandCategories = { Acme: { Hats: 1 }, Lumen: { Home: 1 } };

beforeEach(() => {
  calls = [];
  // Add XML asks for the availability too (the answer then holds both counts).
  xmlAnswer = () =>
    (calls.at(-1)?.body as { withAvailability?: boolean } | undefined)?.withAvailability
      ? json(200, { counts: ANSWER, outOfStock: OUT_OF_STOCK })
      : json(200, ANSWER);
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    calls.push({ path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    if (path === API.app.fetchXml) return xmlAnswer();
    return json(404, { error: { code: 'not_found', message: 'Not found' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

function signIn(tools: string[]) {
  const answer = testSession('tok-xml');
  session.signIn({ ...answer, user: { ...answer.user, tools } });
}

function storedFeed(name: string, rows: [string, string][]): StoredFeed {
  return {
    name,
    dataType: 'table',
    sheetUrl: '',
    rows: rows.map(([root, mod], i) => ({
      id: `${name}-${i}`,
      root,
      mod,
      var1: '',
      var2: '',
      var3: '',
      url: '',
    })),
  };
}

/** A client's feeds and extension templates as the builder holds them, saved in memory. */
async function setup(options: { activeFeed: string | null; rows?: [string, string][] }) {
  const notices: string[] = [];
  const editor = new FeedSetEditor({
    drafts: createMemoryDraftStorage<FeedSetDraft>(),
    notify: (kind, message) => notices.push(`${kind}: ${message}`),
    onUnauthorized: () => {},
  });
  await editor.open(
    {
      key: 'u1|client|Shop',
      name: 'Shop',
      savedMessage: 'saved',
      save: (feeds, revision) => Promise.resolve({ feeds, revision: (revision ?? 0) + 1 }),
      load: () => Promise.resolve({ feeds: [], revision: 1 }),
    },
    { feeds: [storedFeed('brands', options.rows ?? []), storedFeed('cities', [])], revision: 1 },
    { activeFeed: options.activeFeed },
  );
  const saved: ExtensionTemplate[][] = [];
  const templates = new TemplateSetEditor('extensionTemplates', {
    notify: (kind, message) => notices.push(`${kind}: ${message}`),
    onUnauthorized: () => {},
    onChange: () => {},
    onSaved: () => Promise.resolve(),
    onSaveFailed: () => {},
  });
  templates.open(
    {
      name: 'Shop',
      save: (set, revision) => {
        saved.push(structuredClone(set));
        return Promise.resolve({ templates: set, revision: (revision ?? 0) + 1 });
      },
      load: () => Promise.resolve({ templates: [], revision: 1 }),
    },
    { templates: [], revision: 1 },
  );
  render(
    <MantineProvider>
      <XmlFeedPanel editor={editor} templates={templates} />
    </MantineProvider>,
  );
  return { editor, templates, saved, notices };
}

function shownNotices(): string[] {
  return notifications.get().notifications.map((n) => `${n.type}: ${n.message}`);
}

function rowsOf(editor: FeedSetEditor): string[] {
  return editor.getFeedRows('brands').map((row) => `${row.root}|${row.mod}`);
}

describe('XmlFeedPanel', () => {
  it('is absent for a user without the XML tools', async () => {
    signIn([]);
    await setup({ activeFeed: 'brands' });
    expect(screen.queryByRole('group', { name: XML_PANEL_TEXTS.title })).toBeNull();
    expect(screen.queryByRole('button', { name: XML_PANEL_TEXTS.addXml })).toBeNull();
  });

  it('says, while the address waits for its verification, what to do, and mails the link again', async () => {
    const answer = testSession('tok-xml');
    session.signIn({ ...answer, user: { ...answer.user, pendingTools: ['xml-feeds'] } });
    const sent = { type: 'success', message: VERIFY_MESSAGES.linkSent('ann@example.com') };
    vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ path: String(url), body: init?.body });
      return String(url) === API.users.sendVerification
        ? json(200, sent)
        : json(404, { error: { code: 'not_found', message: 'Not found' } });
    });
    await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    expect(within(panel).getByText(VERIFY_MESSAGES.toolWaits('the XML feed tools'))).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: XML_PANEL_TEXTS.addXml })).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Send the link again' }));
    await waitFor(() => expect(shownNotices()).toContain(`success: ${sent.message}`));
    expect(calls.map((call) => call.path)).toEqual([API.users.sendVerification]);
  });

  it('says a refused "Send the link again" with the HTTP status of the answer', async () => {
    const answer = testSession('tok-xml');
    session.signIn({ ...answer, user: { ...answer.user, pendingTools: ['xml-feeds'] } });
    const message = 'Please wait a minute before asking for another link';
    vi.stubGlobal('fetch', async () => json(409, { error: { code: 'conflict', message } }));
    await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.click(within(panel).getByRole('button', { name: 'Send the link again' }));
    await waitFor(() => expect(shownNotices()).toContain(`error: ${message}`));
    expect(notifications.get().notifications.at(-1)?.status).toBe(409);
  });

  it('adds each new brand and category pair to the active feed once', async () => {
    signIn(['xml-feeds']);
    const { editor } = await setup({ activeFeed: 'brands', rows: [['ACME', 'shoes']] });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    const add = within(panel).getByRole('button', { name: XML_PANEL_TEXTS.addXml });
    expect(add).toHaveProperty('disabled', true);
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    expect(within(panel).getByRole('radio', { name: 'Brand + Category' })).toHaveProperty(
      'checked',
      true,
    );
    await userEvent.click(add);
    await waitFor(() => expect(shownNotices()).toContain(`success: ${XML_MESSAGES.rowsAdded(3)}`));
    expect(calls).toEqual([
      {
        path: API.app.fetchXml,
        body: { url: FEED_URL, categoryLevel: 1, withAvailability: true },
      },
    ]);
    expect(rowsOf(editor)).toEqual(['ACME|shoes', 'Lumen|Home', 'Ben & Jerry’s|Food', 'Acme|Hats']);
    // Every Acme hat is out of stock: that row comes in paused; one Lumen lamp of four is not enough.
    expect(editor.getFeedRows('brands').map((row) => row.status)).toEqual(['', '', '', 'paused']);

    // A second Add XML finds nothing new.
    await userEvent.click(add);
    await waitFor(() => expect(shownNotices()).toContain(`success: ${XML_PANEL_TEXTS.noneNew}`));
    expect(editor.getFeedRows('brands')).toHaveLength(4);
  });

  it('takes categories alone at the level chosen', async () => {
    signIn(['xml-feeds']);
    const { editor } = await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(within(panel).getByRole('radio', { name: 'Category' }));
    const level = within(panel).getByRole('textbox', { name: XML_PANEL_TEXTS.levelLabel });
    await userEvent.clear(level);
    await userEvent.type(level, '2');
    await userEvent.click(within(panel).getByRole('button', { name: XML_PANEL_TEXTS.addXml }));
    await waitFor(() => expect(rowsOf(editor)).toHaveLength(5));
    expect(calls[0]!.body).toEqual({ url: FEED_URL, categoryLevel: 2, withAvailability: true });
    expect(rowsOf(editor)).toEqual(['Home|', 'Shoes|', 'Food|', 'Garden|', 'Hats|']);
  });

  it('says why rows were not added, with the server’s message', async () => {
    signIn(['xml-feeds']);
    const { editor } = await setup({ activeFeed: 'brands' });
    const message = 'The feed is not well-formed XML: line 4, column 36: unexpected close tag.';
    xmlAnswer = () => json(422, { error: { code: 'xml_malformed', message } });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(within(panel).getByRole('button', { name: XML_PANEL_TEXTS.addXml }));
    await waitFor(() =>
      expect(shownNotices()).toEqual([`error: ${XML_MESSAGES.rowsFailed}. ${message}`]),
    );
    expect(rowsOf(editor)).toEqual([]);
  });

  it('needs a chosen feed for Add XML, not for Generate Snippets', async () => {
    signIn(['xml-feeds']);
    await setup({ activeFeed: null });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    expect(within(panel).getByRole('button', { name: XML_PANEL_TEXTS.addXml })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(panel).getByText(XML_PANEL_TEXTS.noFeed).textContent).toBe(
      XML_PANEL_TEXTS.noFeed,
    );
    expect(
      within(panel).getByRole('button', { name: XML_PANEL_TEXTS.generateSnippets }),
    ).toHaveProperty('disabled', false);
  });

  it('makes snippet templates of brands and categories and saves them', async () => {
    signIn(['xml-feeds']);
    const { templates, saved } = await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(
      within(panel).getByRole('button', { name: XML_PANEL_TEXTS.generateSnippets }),
    );
    await waitFor(() => expect(saved).toHaveLength(1));
    // Brands: Lumen, Acme, Ben & Jerry’s; Types: 4 categories. Both made, both saved.
    expect(
      saved[0]!.map((t) => [t.name, t.templates[0]!.Header, t.templates[0]!['Snippet Values']]),
    ).toEqual([
      ['Brands', 'Brands', 'Acme; Lumen; Ben & Jerry’s'],
      ['Types', 'Types', 'Home; Shoes; Food; Garden; Hats'],
    ]);
    expect(templates.state.get()).toMatchObject({ isDirty: false, active: 'Types' });
    expect(shownNotices()).toContain(`success: ${XML_MESSAGES.snippetsMade('brandCategory')}`);
  });

  it('says how many values it left out and which', async () => {
    signIn(['xml-feeds']);
    xmlAnswer = () =>
      json(200, {
        Acme: { 'A category name far too long for a snippet': 1 },
        Lumen: { Home: 1 },
        Sitwell: { Chairs: 1 },
      });
    await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(
      within(panel).getByRole('button', { name: XML_PANEL_TEXTS.generateSnippets }),
    );
    const summary = await within(panel).findByText(XML_PANEL_TEXTS.skipped(3));
    await userEvent.click(summary);
    expect(summary.closest('details')).toHaveProperty('open', true);
    const items = within(panel)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/^A category name far too long for a snippet \(Types\): /);
    expect(items.slice(1)).toEqual([
      'Chairs (Types): a snippet needs at least 3 values; the feed gives 2',
      'Home (Types): a snippet needs at least 3 values; the feed gives 2',
    ]);
    expect(shownNotices()).toContain(
      `success: ${XML_MESSAGES.snippetsMade('brandCategory')} (${XML_PANEL_TEXTS.skippedNote(3)})`,
    );
  });

  it('says when the feed gives too few values for any snippet, and saves nothing', async () => {
    signIn(['xml-feeds']);
    xmlAnswer = () => json(200, { Acme: { Shoes: 2 }, Lumen: { Home: 1 } });
    const { templates, saved } = await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(within(panel).getByRole('radio', { name: 'Brand' }));
    await userEvent.click(
      within(panel).getByRole('button', { name: XML_PANEL_TEXTS.generateSnippets }),
    );
    await waitFor(() => expect(shownNotices()).toEqual([`error: ${XML_PANEL_TEXTS.noSnippets}`]));
    expect(within(panel).getByText(XML_PANEL_TEXTS.skipped(2))).toBeTruthy();
    expect(templates.state.get().templates).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('adds nothing when the feed was changed while the XML feed was read', async () => {
    signIn(['xml-feeds']);
    let release = () => {};
    xmlAnswer = () =>
      new Promise(
        (done) => (release = () => done(json(200, { counts: ANSWER, outOfStock: OUT_OF_STOCK }))),
      );
    const { editor } = await setup({ activeFeed: 'brands' });
    const panel = screen.getByRole('group', { name: XML_PANEL_TEXTS.title });
    await userEvent.type(within(panel).getByLabelText(XML_PANEL_TEXTS.urlLabel), FEED_URL);
    await userEvent.click(within(panel).getByRole('button', { name: XML_PANEL_TEXTS.addXml }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(within(panel).getByText(XML_PANEL_TEXTS.running)).toBeTruthy();
    editor.selectFeed('cities');
    release();
    await waitFor(() =>
      expect(shownNotices()).toEqual([
        `error: ${XML_MESSAGES.rowsFailed}. ${XML_PANEL_TEXTS.moved}`,
      ]),
    );
    expect(rowsOf(editor)).toEqual([]);
    expect(editor.getFeedRows('cities')).toEqual([]);
  });
});
