import { useSyncExternalStore } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import { useKeptOutputs } from './keptOutputs.ts';
import {
  describeOrigin,
  describeStale,
  rowsKeyOf,
  staleReasons,
  type OutputOrigin,
  type StaleReason,
} from './outputOrigin.ts';
import './OriginNote.css';

/** What changed since `origin` (re-renders when its template set or the rows change). */
export function useStaleReasons(origin: OutputOrigin): StaleReason[] {
  const workspace = useKeptOutputs();
  const { templates } = useStore(workspace.templateSets.get(origin.templateKind).state);
  const store = workspace.editor.store;
  const rowsKey = useSyncExternalStore(
    store.subscribe,
    () => rowsKeyOf(workspace),
    () => rowsKeyOf(workspace),
  );
  return staleReasons(origin, templates, rowsKey);
}

/**
 * Which template and rows made an output and when, marked 'Changed since: template, rows' when
 * they changed since.
 */
export function OriginNote({
  origin,
  lead = 'Made from',
}: {
  origin: OutputOrigin;
  /** The words before the template: 'Made from', 'Uses the ad groups made from'... */
  lead?: string;
}) {
  return <OriginLine origin={origin} lead={lead} reasons={useStaleReasons(origin)} />;
}

/**
 * The origin of what an output depends on besides its own template (the campaign template that
 * placed assets), shown only once that has changed since: the output's own note says the rest.
 */
export function ChangedSinceNote({ origin, lead }: { origin: OutputOrigin; lead: string }) {
  const reasons = useStaleReasons(origin);
  return reasons.includes('template') ? (
    <OriginLine origin={origin} lead={lead} reasons={reasons} />
  ) : null;
}

/** The origin line and, when something changed since, its badge. */
function OriginLine({
  origin,
  lead,
  reasons,
}: {
  origin: OutputOrigin;
  lead: string;
  reasons: readonly StaleReason[];
}) {
  const stale = describeStale(reasons);
  return (
    <Group gap={6} wrap="wrap" className="origin-note">
      <Text size="xs" c="dimmed" className="origin-note__text">
        {describeOrigin(origin, lead)}
      </Text>
      {stale ? (
        <Badge size="sm" color="orange" variant="light" className="origin-note__stale">
          {stale}
        </Badge>
      ) : null}
    </Group>
  );
}
