import { useState, type ReactNode } from 'react';
import { Button, Group, NativeSelect } from '@mantine/core';
import type { TemplateKind, TemplateOfKind } from '@adloom/contract';
import { useStore } from '../../state/store.ts';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';
import { ConfirmModal, NewItemModal } from '../../components/modals.tsx';
import { newTemplateOfKind } from '../templates/templateSetEditor.ts';

/**
 * A template tab's toolbar (spec section 2): the template dropdown and New Template, Copy
 * Template, Save Template and Delete Template (confirm). Names are made unique with ' (n)';
 * Save sends the kind's whole set with the loaded revision (a 409 opens the conflict dialog).
 */
export function TemplateToolbar<K extends TemplateKind>({
  kind,
  label,
  makeNew,
  extra,
  filter,
}: {
  kind: K;
  /** The dropdown's label (its accessible name), e.g. 'Campaign template'. */
  label: string;
  /** Makes a new template (default: the engine's factory for the kind). */
  makeNew?: (name: string) => TemplateOfKind[K];
  extra?: ReactNode;
  /** Lists only the templates it accepts in the dropdown (e.g. one extension type). */
  filter?: (template: TemplateOfKind[K]) => boolean;
}) {
  const workspace = useBuilderWorkspace();
  const editor = workspace.templateSets.get(kind);
  const { templates, active, isSaving, isOpen } = useStore(editor.state);
  const [isNewOpen, setIsNewOpen] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const shown = filter ? templates.filter(filter) : templates;

  return (
    <>
      <Group gap="sm" align="flex-end" wrap="wrap" className="template-toolbar">
        <NativeSelect
          className="builder-select"
          label={label}
          value={active !== null && shown.some((t) => t.name === active) ? active : ''}
          disabled={!isOpen}
          data={[
            { value: '', label: shown.length === 0 ? 'No templates yet' : 'Select a template' },
            ...shown.map((t) => ({ value: t.name, label: t.name })),
          ]}
          onChange={(event) => editor.setActive(event.currentTarget.value || null)}
        />
        <Button variant="default" onClick={() => setIsNewOpen(true)} disabled={!isOpen}>
          New Template
        </Button>
        <Button
          variant="default"
          onClick={() => editor.copyActive()}
          disabled={!isOpen || active === null}
        >
          Copy Template
        </Button>
        <Button onClick={() => void editor.save()} loading={isSaving} disabled={!isOpen}>
          Save Template
        </Button>
        {active !== null ? (
          <Button variant="light" color="red" onClick={() => setIsDeleteOpen(true)}>
            Delete Template
          </Button>
        ) : null}
        {extra}
      </Group>
      <NewItemModal
        opened={isNewOpen}
        title="New Template"
        label="Template name"
        onClose={() => setIsNewOpen(false)}
        onSubmit={(name) => {
          editor.add(makeNew ? makeNew(name) : newTemplateOfKind(kind, name));
          setIsNewOpen(false);
        }}
      />
      <ConfirmModal
        opened={isDeleteOpen}
        title="Delete Template"
        confirmLabel="Delete Template"
        onClose={() => setIsDeleteOpen(false)}
        onConfirm={async () => {
          if (active === null) return;
          editor.remove(active);
          setIsDeleteOpen(false);
          // Spec section 4: deleting a template saves.
          await editor.save({ isAutosave: true });
        }}
      >
        Delete the template &quot;{active}&quot;? This cannot be undone.
      </ConfirmModal>
    </>
  );
}
