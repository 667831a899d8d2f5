import { useState } from 'react';
import { Button, Group, NumberInput, Radio, Text, TextInput, Title } from '@mantine/core';
import {
  XML_CATEGORY_LEVEL_MAX,
  XML_FEEDS_TOOL,
  XML_MESSAGES,
  XML_SOURCE_LABELS,
  XML_SOURCES,
  XML_URL_MAX_CHARS,
  type XmlSource,
} from '@adloom/contract';
import { xmlFeedCells, xmlSnippetTemplates, type SkippedSnippetValue } from '@adloom/engine';
import { ApiError, statusOf } from '../../api/errors.ts';
import { handleApiError } from '../../api/client.ts';
import { describeXmlFailure, fetchXmlFeed, fetchXmlFeedWithAvailability } from '../../api/xml.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { useStore } from '../../state/store.ts';
import { useSession } from '../../state/useSession.ts';
import type { FeedSetEditor } from '../builder/feedSetEditor.ts';
import type { TrackedFeedStore } from '../builder/trackedFeedStore.ts';
import type { TemplateSetEditor } from '../templates/templateSetEditor.ts';
import { VerifyEmailNotice } from '../auth/VerifyEmailNotice.tsx';
import { pickNewXmlRows } from './xmlRows.ts';
import './XmlFeedPanel.css';

/** The panel's own texts (the spec's notices are XML_MESSAGES). */
export const XML_PANEL_TEXTS = {
  title: 'XML feed',
  urlLabel: 'Feed URL',
  urlPlaceholder: 'https://shop.example.com/products.xml',
  sourceLabel: 'Values from',
  levelLabel: 'Category level',
  levelHint: 'Home > Garden > Tools: 1, 2, 3',
  addXml: 'Add XML',
  generateSnippets: 'Generate Snippets',
  noFeed: 'Choose a feed above: Add XML adds rows to it.',
  running: 'Reading the feed… a large one takes a few seconds.',
  moved: 'The client or feed was changed while the XML feed was read',
  noneNew: 'No rows added: the feed already holds every row from the XML feed',
  noSnippets:
    'Snippets not generated: the feed gives too few usable values (a snippet needs 3). See the values left out in the XML feed panel',
  skipped: (n: number) =>
    `${n.toLocaleString('en-US')} ${n === 1 ? 'value' : 'values'} left out of the snippets`,
  skippedNote: (n: number) => `${n.toLocaleString('en-US')} left out: see the XML feed panel`,
} as const;

/** Values listed under the panel after Generate Snippets; the rest are counted. */
const SKIPPED_SHOWN_MAX = 50;

/** Root and Modifier of every row of the feed, in feed order. */
function* rootsAndModifiers(store: TrackedFeedStore): Generator<[string, string]> {
  for (let i = 0; i < store.rowCount; i += 1) {
    const slot = store.getSlotAt(i);
    yield [store.getCell(slot, 0), store.getCell(slot, 1)];
  }
}

/** A failed fetch: the spec's notice with what went wrong (a refused session or a 5xx: the generic handler). */
function reportXmlFailure(error: unknown, notice: string): void {
  if (error instanceof ApiError && (error.status === 401 || error.status > 499)) {
    handleApiError(error);
    return;
  }
  notifyError(`${notice}. ${describeXmlFailure(error)}`, undefined, statusOf(error));
}

/**
 * Spec section 2 (issue 17), in the Data Table section: a shop's product feed by URL made into
 * rows of the active feed (Add XML) or structured snippet templates of the client (Generate
 * Snippets), from its brands, categories or both. Shown only to users with the XML tools; until
 * their address is verified, the panel holds the verification notice instead.
 */
export function XmlFeedPanel(props: XmlFeedPanelProps) {
  const user = useSession()?.user;
  if (user?.tools?.includes(XML_FEEDS_TOOL)) return <XmlFeedForm {...props} />;
  // The address grants the tools but waits for its verification: the panel says so.
  if (user?.pendingTools?.includes(XML_FEEDS_TOOL))
    return (
      <div className="xml-feed" role="group" aria-labelledby="xml-feed-heading">
        <Title order={3} size="h6" id="xml-feed-heading" className="xml-feed__title">
          {XML_PANEL_TEXTS.title}
        </Title>
        <VerifyEmailNotice tool={XML_FEEDS_TOOL} />
      </div>
    );
  return null;
}

/** Where the panel puts what it makes. */
export interface XmlFeedPanelProps {
  /** The client's feeds: Add XML appends to the active one. */
  editor: FeedSetEditor;
  /** The client's extension templates: Generate Snippets adds to them and saves them. */
  templates: TemplateSetEditor<'extensionTemplates'>;
}

function XmlFeedForm({ editor, templates }: XmlFeedPanelProps) {
  const { activeFeed } = useStore(editor.state);
  const [url, setUrl] = useState('');
  const [source, setSource] = useState<XmlSource>('brandCategory');
  const [level, setLevel] = useState(1);
  const [running, setRunning] = useState<'rows' | 'snippets' | null>(null);
  const [skipped, setSkipped] = useState<SkippedSnippetValue[]>([]);
  const feedUrl = url.trim();

  /**
   * Whether the client (and for rows the feed) changed since a fetch started: its answer goes
   * where it was asked for, or nowhere.
   */
  function hasMoved(
    started: { key: string | null; activeFeed: string | null },
    isFeedBound: boolean,
  ): boolean {
    const now = editor.state.get();
    return now.key !== started.key || (isFeedBound && now.activeFeed !== started.activeFeed);
  }

  async function addXml() {
    const started = editor.state.get();
    setRunning('rows');
    try {
      const answer = await fetchXmlFeedWithAvailability(feedUrl, level);
      if (hasMoved(started, true)) {
        notifyError(`${XML_MESSAGES.rowsFailed}. ${XML_PANEL_TEXTS.moved}`);
        return;
      }
      // A row all of whose products are out of stock comes in paused (its Status cell).
      const cells = xmlFeedCells(answer.counts, source, answer.outOfStock);
      const rows = pickNewXmlRows(rootsAndModifiers(editor.store), cells);
      const added = editor.appendRows(rows);
      notifySuccess(added === 0 ? XML_PANEL_TEXTS.noneNew : XML_MESSAGES.rowsAdded(added));
    } catch (error) {
      reportXmlFailure(error, XML_MESSAGES.rowsFailed);
    } finally {
      setRunning(null);
    }
  }

  async function generateSnippets() {
    const started = editor.state.get();
    setRunning('snippets');
    setSkipped([]);
    try {
      const answer = await fetchXmlFeed(feedUrl, level);
      if (hasMoved(started, false)) {
        notifyError(`${XML_MESSAGES.snippetsFailed}. ${XML_PANEL_TEXTS.moved}`);
        return;
      }
      const snippets = xmlSnippetTemplates(answer, source);
      setSkipped(snippets.skipped);
      if (snippets.templates.length === 0) {
        // The URL was fine: the spec's failure text would send the person to check it.
        notifyError(XML_PANEL_TEXTS.noSnippets);
        return;
      }
      for (const template of snippets.templates) templates.add(template);
      const left = snippets.skipped.length;
      notifySuccess(
        left === 0
          ? XML_MESSAGES.snippetsMade(source)
          : `${XML_MESSAGES.snippetsMade(source)} (${XML_PANEL_TEXTS.skippedNote(left)})`,
      );
      // As New Template then Save Template: the saver says how the save went.
      await templates.save();
    } catch (error) {
      reportXmlFailure(error, XML_MESSAGES.snippetsFailed);
    } finally {
      setRunning(null);
    }
  }

  const isRunning = running !== null;
  return (
    <div className="xml-feed" role="group" aria-labelledby="xml-feed-heading">
      <Title order={3} size="h6" id="xml-feed-heading" className="xml-feed__title">
        {XML_PANEL_TEXTS.title}
      </Title>
      <div className="xml-feed__fields">
        <TextInput
          className="xml-feed__url"
          label={XML_PANEL_TEXTS.urlLabel}
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder={XML_PANEL_TEXTS.urlPlaceholder}
          maxLength={XML_URL_MAX_CHARS}
          value={url}
          disabled={isRunning}
          onChange={(event) => setUrl(event.currentTarget.value)}
        />
        <Radio.Group
          label={XML_PANEL_TEXTS.sourceLabel}
          value={source}
          onChange={(value) => setSource(value as XmlSource)}
        >
          <Group gap="md" className="xml-feed__sources">
            {XML_SOURCES.map((s) => (
              <Radio key={s} value={s} label={XML_SOURCE_LABELS[s]} disabled={isRunning} />
            ))}
          </Group>
        </Radio.Group>
        <NumberInput
          className="xml-feed__level"
          label={XML_PANEL_TEXTS.levelLabel}
          description={XML_PANEL_TEXTS.levelHint}
          inputWrapperOrder={['label', 'input', 'description']}
          min={1}
          max={XML_CATEGORY_LEVEL_MAX}
          clampBehavior="strict"
          allowDecimal={false}
          allowNegative={false}
          value={level}
          disabled={isRunning || source === 'brand'}
          onChange={(value) => setLevel(typeof value === 'number' && value >= 1 ? value : 1)}
        />
      </div>
      <Group gap="sm" mt="sm" wrap="wrap">
        <Button
          variant="default"
          loading={running === 'rows'}
          disabled={activeFeed === null || feedUrl === '' || (isRunning && running !== 'rows')}
          onClick={() => void addXml()}
        >
          {XML_PANEL_TEXTS.addXml}
        </Button>
        <Button
          variant="default"
          loading={running === 'snippets'}
          disabled={feedUrl === '' || (isRunning && running !== 'snippets')}
          onClick={() => void generateSnippets()}
        >
          {XML_PANEL_TEXTS.generateSnippets}
        </Button>
        {isRunning ? (
          <Text size="xs" c="dimmed">
            {XML_PANEL_TEXTS.running}
          </Text>
        ) : activeFeed === null ? (
          <Text size="xs" c="dimmed">
            {XML_PANEL_TEXTS.noFeed}
          </Text>
        ) : null}
      </Group>
      {skipped.length > 0 ? <SkippedValues skipped={skipped} /> : null}
    </div>
  );
}

/** The values the last Generate Snippets left out, with why (the first 50, then a count). */
function SkippedValues({ skipped }: { skipped: readonly SkippedSnippetValue[] }) {
  const rest = skipped.length - SKIPPED_SHOWN_MAX;
  return (
    <details className="xml-feed__skipped">
      <summary>{XML_PANEL_TEXTS.skipped(skipped.length)}</summary>
      <ul>
        {skipped.slice(0, SKIPPED_SHOWN_MAX).map((s) => (
          <li key={`${s.header}\u0000${s.value}`}>
            <strong>{s.value}</strong> ({s.header}): {s.reason}
          </li>
        ))}
        {rest > 0 ? <li>and {rest.toLocaleString('en-US')} more</li> : null}
      </ul>
    </details>
  );
}
