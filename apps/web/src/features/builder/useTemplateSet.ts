import { useSyncExternalStore } from 'react';
import type { TemplateKind, TemplateOfKind } from '@adloom/contract';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';
import type { TemplateSetEditor } from '../templates/templateSetEditor.ts';

/** A tab's view of its kind's template set. */
export interface TemplateSetView<K extends TemplateKind> {
  templates: TemplateOfKind[K][];
  active: TemplateOfKind[K] | null;
  activeName: string | null;
  setActive(name: string | null): void;
  /** Replaces the active template (its name stays); marks the set unsaved. */
  update(next: TemplateOfKind[K]): void;
  dirty: boolean;
  hasClient: boolean;
  editor: TemplateSetEditor<K>;
}

/** The active client's templates of one kind (re-renders on every change). */
export function useTemplateSet<K extends TemplateKind>(kind: K): TemplateSetView<K> {
  const workspace = useBuilderWorkspace();
  const editor = workspace.templateSets.get(kind);
  const state = useSyncExternalStore(editor.state.subscribe, editor.state.get, editor.state.get);
  const active = state.templates.find((t) => t.name === state.active) ?? null;
  return {
    templates: state.templates,
    active,
    activeName: active ? active.name : null,
    setActive: (name) => editor.setActive(name),
    update: (next) => editor.update(next),
    dirty: state.isDirty,
    hasClient: state.isOpen,
    editor,
  };
}
