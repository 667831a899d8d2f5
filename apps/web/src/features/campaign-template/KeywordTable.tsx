import { useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import {
  MATCH_TYPES,
  readKeywordNotation,
  type KeywordPattern,
  type MatchType,
} from '@adloom/engine';

/**
 * What a keyword line's notation means, as the person types: `[kw]` and `"kw"` are read as the
 * match type they state (said under the line), and an error when they contradict its match type.
 */
function notationNote(k: KeywordPattern): { error?: string; description?: string } {
  const read = readKeywordNotation(k.keyword, k.matchType);
  if (read === undefined) return {};
  if ('conflict' in read) return { error: read.conflict };
  return { description: `Read as ${read.matchType}: ${read.text}` };
}

/**
 * The campaign template's keyword table: a pattern and a match type per line; lines are added
 * and deleted singly or by selection. Bracket and quote notation is checked as the person types
 * (`notationNote`). The selection is the table's own (the stored `selected`
 * flag means "generate this line" to the engine and stays true).
 */
export function KeywordTable({
  keywords,
  onChange,
}: {
  keywords: KeywordPattern[];
  onChange: (next: KeywordPattern[]) => void;
}) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const selectedCount = [...selected].filter((i) => i < keywords.length).length;
  const isAllSelected = keywords.length > 0 && selectedCount === keywords.length;

  function setLine(index: number, patch: Partial<KeywordPattern>) {
    onChange(keywords.map((k, i) => (i === index ? { ...k, ...patch } : k)));
  }

  function deleteLines(indexes: ReadonlySet<number>) {
    onChange(keywords.filter((_, i) => !indexes.has(i)));
    setSelected(new Set());
  }

  function addLine() {
    onChange([...keywords, { keyword: '', matchType: 'Broad', selected: true }]);
  }

  return (
    <div className="keyword-table">
      <Group gap="xs" justify="space-between" wrap="wrap" mb={6}>
        <Text fw={600} size="sm" id="keywords-heading">
          Keywords
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={addLine}>
            Add Keyword
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={selectedCount === 0}
            onClick={() => deleteLines(selected)}
          >
            Delete ({selectedCount})
          </Button>
        </Group>
      </Group>
      <div role="table" aria-label="Template keywords" className="keyword-table__grid">
        <div role="row" className="keyword-table__row keyword-table__row--head">
          <span role="columnheader">
            <Checkbox
              aria-label="Select all keywords"
              checked={isAllSelected}
              indeterminate={selectedCount > 0 && !isAllSelected}
              disabled={keywords.length === 0}
              onChange={() =>
                setSelected(isAllSelected ? new Set() : new Set(keywords.map((_, i) => i)))
              }
            />
          </span>
          <span role="columnheader">Keyword</span>
          <span role="columnheader">Match type</span>
          <span role="columnheader">
            <span className="visually-hidden">Delete</span>
          </span>
        </div>
        {keywords.length === 0 ? (
          <Text size="sm" c="dimmed" className="keyword-table__empty">
            No keywords yet: Add Keyword adds a line, e.g. {'{root} {mod}'}.
          </Text>
        ) : null}
        {keywords.map((k, i) => (
          <div role="row" key={i} className="keyword-table__row">
            <span role="cell">
              <Checkbox
                aria-label={`Select keyword ${i + 1}`}
                checked={selected.has(i)}
                onChange={(event) => {
                  const next = new Set(selected);
                  if (event.currentTarget.checked) next.add(i);
                  else next.delete(i);
                  setSelected(next);
                }}
              />
            </span>
            <span role="cell">
              <TextInput
                size="xs"
                aria-label={`Keyword ${i + 1}`}
                placeholder="{root} {mod}"
                value={k.keyword}
                maxLength={2000}
                {...notationNote(k)}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                onChange={(event) => setLine(i, { keyword: event.currentTarget.value })}
              />
            </span>
            <span role="cell">
              <NativeSelect
                size="xs"
                aria-label={`Match type ${i + 1}`}
                value={k.matchType}
                data={[...MATCH_TYPES]}
                onChange={(event) =>
                  setLine(i, { matchType: event.currentTarget.value as MatchType })
                }
              />
            </span>
            <span role="cell">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete keyword ${i + 1}`}
                onClick={() => deleteLines(new Set([i]))}
              >
                ×
              </ActionIcon>
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
