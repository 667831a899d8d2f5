import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Slider,
  Stack,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import {
  AI_CREATIVITY_DEFAULT,
  AI_HELPER_TOOL,
  AI_MESSAGES,
  AI_PROMPT_SETTINGS,
  AI_SUGGESTION_COUNTS,
  AI_SUGGESTIONS_DEFAULT,
  AI_SUGGESTIONS_MARKER,
  type AiSuggestion,
  type AiSuggestionType,
} from '@adloom/contract';
import { streamAiSuggestions } from '../../api/ai.ts';
import { ApiError } from '../../api/errors.ts';
import { notifySuccess } from '../../state/notifications.ts';
import { useStore } from '../../state/store.ts';
import { useSession } from '../../state/useSession.ts';
import { useSelectedRows } from '../generation/index.ts';
import { VerifyEmailNotice } from '../auth/VerifyEmailNotice.tsx';
import { clampPosition, ROW_COLUMNS, valuesFromRows, type RowColumn } from './promptSettings.ts';
import { notConfigured, panelState } from './aiHelperState.ts';
import { useAddToFallback } from './useAddToFallback.ts';
import './aiHelper.css';

/** Pixels an arrow key moves the panel. */
const KEY_STEP = 16;
const PANEL_WIDTH = 380;

interface PromptSetting {
  isOn: boolean;
  title: string;
  values: string;
}

const initialSettings = (): PromptSetting[] =>
  AI_PROMPT_SETTINGS.map((title) => ({ isOn: false, title, values: '' }));

function Mascot({ isOpen, onToggle }: { isOpen: boolean; onToggle: () => void }) {
  return (
    <UnstyledButton
      className="ai-mascot"
      aria-label="AI helper"
      aria-expanded={isOpen}
      title="AI helper"
      onClick={onToggle}
    >
      <svg viewBox="0 0 48 48" width="44" height="44" aria-hidden="true">
        <line x1="24" y1="4" x2="24" y2="11" stroke="currentColor" strokeWidth="2.5" />
        <circle cx="24" cy="4" r="3" fill="#f59f00" />
        <rect x="7" y="11" width="34" height="28" rx="10" fill="currentColor" />
        <circle cx="18" cy="24" r="4" fill="#fff" />
        <circle cx="30" cy="24" r="4" fill="#fff" />
        <circle cx="18.8" cy="24.6" r="1.8" fill="#1c2a3a" />
        <circle cx="30.8" cy="24.6" r="1.8" fill="#1c2a3a" />
        <path d="M18 32 Q24 36 30 32" stroke="#fff" strokeWidth="2.2" fill="none" />
      </svg>
    </UnstyledButton>
  );
}

/** The draggable frame: header (drag, arrow keys), close button, body. */
function useDrag() {
  const state = useStore(panelState);
  const panel = useRef<HTMLDivElement>(null);
  const start = useRef<{ dx: number; dy: number } | null>(null);

  function moveTo(x: number, y: number) {
    const box = panel.current?.getBoundingClientRect();
    const next = clampPosition(
      { x, y },
      { width: box?.width ?? PANEL_WIDTH, height: box?.height ?? 0 },
      { width: window.innerWidth, height: window.innerHeight },
    );
    panelState.set((s) => ({ ...s, ...next }));
  }

  return {
    state,
    panel,
    headerProps: {
      onPointerDown(event: PointerEvent<HTMLDivElement>) {
        if ((event.target as HTMLElement).closest('button')) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        start.current = { dx: event.clientX - state.x, dy: event.clientY - state.y };
      },
      onPointerMove(event: PointerEvent<HTMLDivElement>) {
        if (start.current)
          moveTo(event.clientX - start.current.dx, event.clientY - start.current.dy);
      },
      onPointerUp() {
        start.current = null;
      },
      onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
        const moves: Record<string, [number, number]> = {
          ArrowLeft: [-KEY_STEP, 0],
          ArrowRight: [KEY_STEP, 0],
          ArrowUp: [0, -KEY_STEP],
          ArrowDown: [0, KEY_STEP],
        };
        const move = moves[event.key];
        if (!move) return;
        event.preventDefault();
        moveTo(state.x + move[0], state.y + move[1]);
      },
    },
  };
}

/** A suggestion with its count and, when Google would refuse it, the reason. */
function SuggestionItem({
  suggestion,
  onAdd,
}: {
  suggestion: AiSuggestion;
  onAdd: ((text: string) => void) | null;
}) {
  const isBad = suggestion.problem !== undefined;
  return (
    <li className={isBad ? 'ai-suggestion ai-suggestion--bad' : 'ai-suggestion'}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <div className="ai-suggestion__text">
          <Text size="sm">{suggestion.text}</Text>
          {isBad && (
            <Text size="xs" c="red.8">
              {suggestion.problem}
            </Text>
          )}
        </div>
        <Badge
          variant="light"
          color={isBad ? 'red' : 'gray'}
          aria-label={`${suggestion.length} of ${suggestion.limit} characters`}
        >
          {suggestion.length}/{suggestion.limit}
        </Badge>
        <Button
          size="compact-xs"
          variant="light"
          disabled={!onAdd}
          aria-label={`Add ${suggestion.text}`}
          aria-describedby="ai-add-note"
          onClick={() => onAdd?.(suggestion.text)}
        >
          Add
        </Button>
      </Group>
    </li>
  );
}

/** The helper's form, the streamed answer and the counted suggestions. */
function HelperForm() {
  const selection = useSelectedRows();
  const [type, setType] = useState<AiSuggestionType>('headlines');
  const [description, setDescription] = useState('');
  const [settings, setSettings] = useState(initialSettings);
  const [count, setCount] = useState<number>(AI_SUGGESTIONS_DEFAULT);
  const [creativity, setCreativity] = useState(AI_CREATIVITY_DEFAULT);
  const [error, setError] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<AiSuggestion[]>([]);
  const [running, setRunning] = useState<AbortController | null>(null);
  const target = useAddToFallback(type);
  const limits = AI_SUGGESTION_COUNTS[type];

  function changeSetting(index: number, change: Partial<PromptSetting>) {
    setSettings((all) => all.map((s, i) => (i === index ? { ...s, ...change } : s)));
  }

  async function ask() {
    if (description.trim() === '') return setError(AI_MESSAGES.noDescription);
    if (description.includes(AI_SUGGESTIONS_MARKER)) return setError(AI_MESSAGES.deletePrevious);
    const base = description.trimEnd();
    const stop = new AbortController();
    setError(null);
    setSuggestions([]);
    setRunning(stop);
    let streamed = `${base}\n\n${AI_SUGGESTIONS_MARKER}\n`;
    try {
      const answer = await streamAiSuggestions(
        {
          type,
          description: base,
          params: settings
            .filter((s) => s.isOn && s.title.trim() !== '')
            .map((s) => ({ promptTitle: s.title.trim(), values: s.values })),
          suggestionsToReturn: count,
          creativity,
        },
        (text) => {
          streamed += text;
          setDescription(streamed);
        },
        stop.signal,
      );
      setDescription(`${base}\n\n${answer.text}`);
      setSuggestions(answer.suggestions);
      notifySuccess(AI_MESSAGES.tokens(answer.tokens));
    } catch (cause) {
      if (stop.signal.aborted) setError('Stopped. The text that arrived is kept above.');
      else if (cause instanceof ApiError && cause.status === 501) notConfigured.set(true);
      else setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setRunning(null);
    }
  }

  return (
    <>
      <Stack gap="sm" className="ai-panel__body">
        <SegmentedControl
          aria-label="Suggestion type"
          fullWidth
          value={type}
          onChange={(value) => {
            const next = value as AiSuggestionType;
            setType(next);
            const { min, max } = AI_SUGGESTION_COUNTS[next];
            setCount((n) => Math.min(Math.max(n, min), max));
          }}
          data={[
            { value: 'headlines', label: 'Headlines' },
            { value: 'descriptions', label: 'Descriptions' },
          ]}
        />
        <Textarea
          label="Description"
          description="Describe what you sell"
          autosize
          minRows={3}
          maxRows={10}
          value={description}
          readOnly={running !== null}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
        {suggestions.length > 0 && (
          <section aria-label="Suggestions">
            <Text size="xs" c="dimmed" id="ai-add-note" mb={4}>
              {target.note}
            </Text>
            <ul className="ai-suggestions">
              {suggestions.map((s, i) => (
                <SuggestionItem key={`${i}:${s.text}`} suggestion={s} onAdd={target.add} />
              ))}
            </ul>
          </section>
        )}
        <fieldset className="ai-settings">
          <legend>Prompt settings (optional)</legend>
          {settings.map((setting, i) => (
            <div key={AI_PROMPT_SETTINGS[i]} className="ai-setting">
              <Checkbox
                label={AI_PROMPT_SETTINGS[i]}
                checked={setting.isOn}
                onChange={(e) => changeSetting(i, { isOn: e.currentTarget.checked })}
              />
              {setting.isOn && (
                <Stack gap={6} className="ai-setting__fields">
                  <TextInput
                    size="xs"
                    label="Prompt title"
                    value={setting.title}
                    onChange={(e) => changeSetting(i, { title: e.currentTarget.value })}
                  />
                  <Select
                    size="xs"
                    label="Values from the selected rows"
                    placeholder={selection.count === 0 ? 'Select rows first' : 'Choose a column'}
                    disabled={selection.count === 0}
                    data={ROW_COLUMNS.map((c) => ({ value: c.value, label: c.label }))}
                    comboboxProps={{ withinPortal: false }}
                    value={null}
                    onChange={(column) => {
                      if (column)
                        changeSetting(i, {
                          values: valuesFromRows(selection.read(), column as RowColumn),
                        });
                    }}
                  />
                  <Textarea
                    size="xs"
                    label="Values"
                    autosize
                    minRows={1}
                    maxRows={4}
                    value={setting.values}
                    onChange={(e) => changeSetting(i, { values: e.currentTarget.value })}
                  />
                </Stack>
              )}
            </div>
          ))}
        </fieldset>
        <NumberInput
          label="Number of suggestions"
          description={`${limits.min} to ${limits.max}`}
          min={limits.min}
          max={limits.max}
          clampBehavior="strict"
          allowDecimal={false}
          value={count}
          onChange={(value) => setCount(typeof value === 'number' ? value : limits.min)}
        />
        <div>
          <Group justify="space-between">
            <Text size="sm" fw={500} id="ai-creativity-label">
              Creativity
            </Text>
            <Text size="sm" aria-hidden="true">
              {creativity.toFixed(2)}
            </Text>
          </Group>
          <Slider
            min={0}
            max={1}
            step={0.01}
            value={creativity}
            onChange={setCreativity}
            thumbLabel="Creativity"
            label={(v) => v.toFixed(2)}
          />
        </div>
      </Stack>
      <Group gap="sm" className="ai-panel__footer">
        <Button onClick={() => void ask()} loading={running !== null}>
          Get suggestions
        </Button>
        {running && (
          <Button variant="default" onClick={() => running.abort()}>
            Stop
          </Button>
        )}
      </Group>
    </>
  );
}

/**
 * The AI helper of spec sections 2, 5, 7 and 9, for users whose email opens it: the mascot at
 * the screen's corner opens a draggable, non-modal panel. Until the address is verified the
 * panel holds the verification notice instead of the form.
 */
export function AiHelper() {
  const current = useSession();
  const drag = useDrag();
  const isConfigured = !useStore(notConfigured);
  const hasTool = current?.user.tools?.includes(AI_HELPER_TOOL) === true;
  // The address grants the helper but waits for its verification: the panel says so.
  const isWaiting = !hasTool && current?.user.pendingTools?.includes(AI_HELPER_TOOL) === true;
  if (!hasTool && !isWaiting) return null;
  const { isOpen, x, y } = drag.state;
  const toggle = () => panelState.set((s) => ({ ...s, isOpen: !s.isOpen }));
  return (
    <>
      <Mascot isOpen={isOpen} onToggle={toggle} />
      {isOpen && (
        <div
          ref={drag.panel}
          className="ai-panel"
          role="dialog"
          aria-modal="false"
          aria-labelledby="ai-panel-title"
          // Kept on screen when the window is narrower or shorter than where it was left.
          style={{
            left: `min(${x}px, calc(100vw - min(${PANEL_WIDTH}px, 100vw - 16px) - 8px))`,
            top: `min(${y}px, calc(100vh - 48px))`,
          }}
        >
          <div
            className="ai-panel__header"
            role="group"
            tabIndex={0}
            aria-label="AI helper: drag or use the arrow keys to move"
            {...drag.headerProps}
          >
            <Text fw={600} id="ai-panel-title">
              AI helper
            </Text>
            <CloseButton aria-label="Close the AI helper" onClick={toggle} />
          </div>
          {isWaiting ? (
            <div className="ai-panel__body">
              <VerifyEmailNotice tool={AI_HELPER_TOOL} />
            </div>
          ) : isConfigured ? (
            <HelperForm />
          ) : (
            <div className="ai-panel__body">
              <Alert color="yellow" role="status">
                {AI_MESSAGES.notConfigured}
              </Alert>
            </div>
          )}
        </div>
      )}
    </>
  );
}
