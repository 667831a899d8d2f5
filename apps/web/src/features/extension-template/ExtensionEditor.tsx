import { Button, NativeSelect, TextInput } from '@mantine/core';
import {
  EXTENSION_INPUT_MAX_CHARS,
  SNIPPET_HEADERS,
  SNIPPET_MAX_VALUES,
  SNIPPET_MIN_VALUES,
  SNIPPET_VALUE_MAX_CHARS,
  EXTENSION_ATTACH_LEVELS,
  countAdTextLength,
  findSnippetHeader,
  splitSnippetValues,
  type AttachLevelChoice,
  type ExtensionAttachLevel,
  type ExtensionField,
  type ExtensionTemplate,
  type ExtensionValues,
} from '@adloom/engine';
import { TextCounter, useLongest, type Longest, type TextMeasurer } from '../validation/index.ts';
import './ExtensionsTab.css';

/** Props of `ExtensionEditor`. */
export interface ExtensionEditorProps {
  template: ExtensionTemplate;
  /** The template with the edit applied (same name, same type). */
  onChange: (next: ExtensionTemplate) => void;
  /** Measures texts over the selected rows for the counters. */
  measurer: TextMeasurer;
  /** Where the assets attach with the active campaign template, and why. */
  attach: AttachLevelChoice;
}

/** The 'Attach to' options: the label of each attachment level. */
const ATTACH_LEVEL_LABELS: Readonly<Record<ExtensionAttachLevel, string>> = {
  auto: 'Automatic (from placeholders)',
  account: 'Account',
  campaign: 'Campaign',
  adGroup: 'Ad group',
};

/** The field that holds a structured snippet's header (a dropdown of Google's fixed list). */
export const SNIPPET_HEADER_FIELD = 'Header';
/** The field that holds a structured snippet's values (separated by ';'). */
export const SNIPPET_VALUES_FIELD = 'Snippet Values';
/** Shown in the header dropdown before a header is chosen. */
export const SNIPPET_HEADER_PROMPT = 'Select a header';

/** Most entries (fallbacks) one template may hold (the save refuses more). */
export const EXTENSION_FALLBACKS_MAX = 100;

/** The template with one field of one entry (0: the first, which holds the values) changed. */
export function setExtensionValue(
  template: ExtensionTemplate,
  title: string,
  value: string,
  index = 0,
): ExtensionTemplate {
  const templates = template.templates.length ? [...template.templates] : [{}];
  const values: ExtensionValues = { ...templates[index], [title]: value };
  templates[index] = values;
  return { ...template, templates };
}

/**
 * The template with one more entry: a fallback tried for the rows the entries before it cannot
 * serve. Its static fields (Upgraded extension, Final URL, Header) start as the first entry's.
 */
export function addExtensionFallback(template: ExtensionTemplate): ExtensionTemplate {
  const first = template.templates[0] ?? {};
  const entry: ExtensionValues = {};
  for (const f of template.extensionType.fields)
    entry[f.title] = f.isStatic ? (first[f.title] ?? '') : '';
  return {
    ...template,
    templates: [...(template.templates.length ? template.templates : [{}]), entry],
  };
}

/** The template without entry `index` (never the first). */
export function deleteExtensionFallback(
  template: ExtensionTemplate,
  index: number,
): ExtensionTemplate {
  if (index <= 0 || index >= template.templates.length) return template;
  return { ...template, templates: template.templates.filter((_, i) => i !== index) };
}

function describeStatic(field: ExtensionField, typeName: string): string {
  if (typeName === 'Sitelink' && field.title === 'Final URL')
    return "Leave it empty to use each row's Final URL; it must start with http:// or https://.";
  return 'Static: copied as typed, not checked.';
}

/**
 * The field editor of an extension template (spec section 3): one input per field of its type
 * with the field's limit and a live counter (length as Google counts it and the longest after
 * substitution over the selected rows), and the header dropdown of a structured snippet. The first
 * entry holds the values; Add Fallback adds entries tried in order for rows the first cannot serve.
 */
export function ExtensionEditor({ template, onChange, measurer, attach }: ExtensionEditorProps) {
  const typeName = template.extensionType.name;
  const entries = template.templates.length ? template.templates : [{}];
  const hasFallbacks = entries.length > 1;
  return (
    <div className="extension-editor" role="group" aria-label={`${typeName} fields`}>
      <NativeSelect
        className="extension-editor__field extension-editor__attach"
        label="Attach to"
        description={`${attach.reason}.`}
        inputWrapperOrder={['label', 'input', 'description']}
        value={template.attachTo}
        data={EXTENSION_ATTACH_LEVELS.map((l) => ({ value: l, label: ATTACH_LEVEL_LABELS[l] }))}
        onChange={(event) =>
          onChange({ ...template, attachTo: event.currentTarget.value as ExtensionAttachLevel })
        }
      />
      {entries.map((values, index) => {
        const fields = (
          <ExtensionFields
            template={template}
            values={values}
            index={index}
            onChange={onChange}
            measurer={measurer}
          />
        );
        if (!hasFallbacks) return <div key={index}>{fields}</div>;
        return (
          <fieldset key={index} className="extension-editor__fallback">
            <legend className="extension-editor__legend">Fallback {index + 1}</legend>
            {fields}
            {index > 0 ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                className="extension-editor__delete"
                aria-label={`Delete Fallback ${index + 1}`}
                onClick={() => onChange(deleteExtensionFallback(template, index))}
              >
                Delete Fallback
              </Button>
            ) : null}
          </fieldset>
        );
      })}
      <div>
        <Button
          size="xs"
          variant="default"
          disabled={entries.length >= EXTENSION_FALLBACKS_MAX}
          onClick={() => onChange(addExtensionFallback(template))}
        >
          Add Fallback
        </Button>
      </div>
    </div>
  );
}

function ExtensionFields({
  template,
  values,
  index,
  onChange,
  measurer,
}: Omit<ExtensionEditorProps, 'attach'> & { values: ExtensionValues; index: number }) {
  const typeName = template.extensionType.name;
  return (
    <div className="extension-editor__fields">
      {template.extensionType.fields.map((field) => {
        const value = values[field.title] ?? '';
        const change = (next: string) =>
          onChange(setExtensionValue(template, field.title, next, index));
        if (typeName === 'Structured Snippet' && field.title === SNIPPET_HEADER_FIELD) {
          return <SnippetHeaderSelect key={field.title} value={value} onChange={change} />;
        }
        if (typeName === 'Structured Snippet' && field.title === SNIPPET_VALUES_FIELD) {
          return (
            <SnippetValuesInput
              key={field.title}
              value={value}
              onChange={change}
              measurer={measurer}
            />
          );
        }
        return (
          <ExtensionFieldInput
            key={field.title}
            field={field}
            typeName={typeName}
            value={value}
            onChange={change}
            measurer={measurer}
          />
        );
      })}
    </div>
  );
}

function ExtensionFieldInput({
  field,
  typeName,
  value,
  onChange,
  measurer,
}: {
  field: ExtensionField;
  typeName: string;
  value: string;
  onChange: (value: string) => void;
  measurer: TextMeasurer;
}) {
  const isLimited = !field.isStatic && field.maxLength > 0;
  const description = field.isStatic ? (
    describeStatic(field, typeName)
  ) : isLimited ? (
    <>
      Max {field.maxLength} characters
      {typeName === 'Sitelink' && field.title.startsWith('Description Line')
        ? ', both lines or neither'
        : ''}{' '}
      ·{' '}
      <TextCounter
        text={value}
        max={field.maxLength}
        measurer={measurer}
        // Google's editorial rules as for ad texts; only descriptions may carry a "!".
        editorial={field.title.startsWith('Description Line') ? 'text' : 'headline'}
      />
    </>
  ) : (
    'No limit'
  );
  return (
    <TextInput
      className="extension-editor__field"
      label={field.title}
      description={description}
      inputWrapperOrder={['label', 'input', 'description']}
      value={value}
      maxLength={EXTENSION_INPUT_MAX_CHARS}
      spellCheck={!field.isStatic}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

function SnippetHeaderSelect({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const known = findSnippetHeader(value);
  // A stored header outside the list (an old template) is kept and offered, never dropped.
  const data = [
    { value: '', label: SNIPPET_HEADER_PROMPT },
    ...(value !== '' && known === undefined
      ? [{ value, label: `${value} (not a Google header)` }]
      : []),
    ...SNIPPET_HEADERS.map((h) => ({ value: h, label: h })),
  ];
  return (
    <NativeSelect
      className="extension-editor__field extension-editor__header"
      label={SNIPPET_HEADER_FIELD}
      description="One of Google's fixed structured snippet headers."
      inputWrapperOrder={['label', 'input', 'description']}
      value={known ?? value}
      data={data}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** What the snippet values counter shows for the values as typed and after substitution. */
export interface SnippetValuesFacts {
  count: number;
  /** Longest value as typed (Google's count). */
  longestTyped: number;
}

/** Counts the values of a snippet text and the longest of them as typed. */
export function findSnippetValuesFacts(text: string): SnippetValuesFacts {
  const list = splitSnippetValues(text);
  return {
    count: list.length,
    longestTyped: list.reduce((m, v) => Math.max(m, countAdTextLength(v)), 0),
  };
}

function SnippetValuesInput({
  value,
  onChange,
  measurer,
}: {
  value: string;
  onChange: (value: string) => void;
  measurer: TextMeasurer;
}) {
  const { count, longestTyped } = findSnippetValuesFacts(value);
  const longest = useLongestOfValues(value, measurer);
  const isCountWrong = count < SNIPPET_MIN_VALUES || count > SNIPPET_MAX_VALUES;
  const isTypedOver = longestTyped > SNIPPET_VALUE_MAX_CHARS;
  const isLongestOver = longest !== null && longest.length > SNIPPET_VALUE_MAX_CHARS;
  const showsLongest = measurer.rowCount > 0 && (longest === null || longest.rowIndex >= 0);
  return (
    <TextInput
      className="extension-editor__field"
      label={SNIPPET_VALUES_FIELD}
      description={
        <>
          {SNIPPET_MIN_VALUES} to {SNIPPET_MAX_VALUES} values separated by ;, each max{' '}
          {SNIPPET_VALUE_MAX_CHARS} characters ·{' '}
          <span
            className="text-counter"
            data-over={isCountWrong || isTypedOver || isLongestOver ? 'true' : undefined}
          >
            <span className={isCountWrong ? 'text-counter__over' : undefined}>
              {count} {count === 1 ? 'value' : 'values'}
              {isCountWrong ? ` (needs ${SNIPPET_MIN_VALUES} to ${SNIPPET_MAX_VALUES})` : ''}
            </span>
            {' · '}
            <span className={isTypedOver ? 'text-counter__over' : undefined}>
              longest value {longestTyped}/{SNIPPET_VALUE_MAX_CHARS}
              {isTypedOver ? ' over the limit' : ''}
            </span>
            {showsLongest ? (
              <span className={isLongestOver ? 'text-counter__over' : 'text-counter__longest'}>
                {longest === null
                  ? ' · after substitution …'
                  : ` · after substitution ${longest.length}/${SNIPPET_VALUE_MAX_CHARS} (row ${longest.rowIndex + 1})${isLongestOver ? ' over the limit' : ''}`}
              </span>
            ) : null}
          </span>
        </>
      }
      inputWrapperOrder={['label', 'input', 'description']}
      value={value}
      maxLength={EXTENSION_INPUT_MAX_CHARS}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** The longest any one snippet value becomes over the rows (null while measuring). */
function useLongestOfValues(text: string, measurer: TextMeasurer): Longest | null {
  const list = splitSnippetValues(text);
  const known = list.map((v) => measurer.peek(v));
  const allKnown = known.every((k) => k !== undefined);
  return useLongest(
    text,
    measurer,
    allKnown ? pickLongest(known as Longest[]) : null,
    measureValues,
  );
}

function measureValues(text: string, measurer: TextMeasurer, signal: AbortSignal) {
  return Promise.all(splitSnippetValues(text).map((v) => measurer.measure(v, signal))).then(
    pickLongest,
  );
}

function pickLongest(list: readonly Longest[]): Longest {
  let best: Longest = { length: 0, rowIndex: -1 };
  for (const l of list) {
    const isTieWithRow = l.length === best.length && best.rowIndex < 0 && l.rowIndex >= 0;
    if (l.length > best.length || isTieWithRow) best = l;
  }
  return best;
}
