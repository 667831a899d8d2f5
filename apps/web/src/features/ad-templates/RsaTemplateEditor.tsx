import { useEffect, useState, type ReactNode } from 'react';
import type { PerformanceMaxTemplate, RsaTemplate } from '@adloom/engine';
import type { FallbackValidator, TextMeasurer } from '../validation/index.ts';
import { FallbackSlides } from './FallbackSlides.tsx';
import { PerformanceFallbackEditor } from './PerformanceFallbackEditor.tsx';
import { RsaFallbackEditor } from './RsaFallbackEditor.tsx';
import {
  addPerformanceMaxFallback,
  addRsaFallback,
  deleteFallback,
  setFallback,
} from './fallbackEdit.ts';
import { openFallback, type OpenFallback } from './openFallback.ts';
import './adTemplates.css';

/** The slide shown, kept in `openFallback` while the editor shows (the AI helper adds to it). */
function useOpenFallback(kind: OpenFallback['kind'], count: number) {
  const [index, setIndex] = useState(0);
  const shown = Math.min(Math.max(index, 0), count - 1);
  useEffect(() => {
    openFallback.set({ kind, index: shown });
    return () => openFallback.set(null);
  }, [kind, shown]);
  return [index, setIndex] as const;
}

/** Props of the template editors. */
export interface TemplateEditorProps<T> {
  template: T;
  onChange: (next: T) => void;
  measurer: TextMeasurer;
  validator: FallbackValidator;
  /** Extra buttons beside Add Fallback (Generate Ads, Ad Preview). */
  actions?: ReactNode;
}

/** The RSA template editor: the fallback slideshow over RSA fallbacks. */
export function RsaTemplateEditor({
  template,
  onChange,
  measurer,
  validator,
  actions,
}: TemplateEditorProps<RsaTemplate>) {
  const [index, setIndex] = useOpenFallback('rsa', template.templates.length);
  return (
    <FallbackSlides
      kind="rsa"
      fallbacks={template.templates}
      index={index}
      onIndexChange={setIndex}
      onAdd={() => onChange(addRsaFallback(template))}
      onDelete={(i) => onChange(deleteFallback(template, i))}
      validator={validator}
      actions={actions}
      renderFallback={(fallback, i) => (
        <RsaFallbackEditor
          fallback={fallback}
          measurer={measurer}
          onChange={(next) => onChange(setFallback(template, i, next))}
        />
      )}
    />
  );
}

/** The Performance Max template editor. */
export function PerformanceTemplateEditor({
  template,
  onChange,
  measurer,
  validator,
  actions,
}: TemplateEditorProps<PerformanceMaxTemplate>) {
  const [index, setIndex] = useOpenFallback('performance', template.templates.length);
  return (
    <FallbackSlides
      kind="performance"
      fallbacks={template.templates}
      index={index}
      onIndexChange={setIndex}
      onAdd={() => onChange(addPerformanceMaxFallback(template))}
      onDelete={(i) => onChange(deleteFallback(template, i))}
      validator={validator}
      actions={actions}
      renderFallback={(fallback, i) => (
        <PerformanceFallbackEditor
          fallback={fallback}
          measurer={measurer}
          onChange={(next) => onChange(setFallback(template, i, next))}
        />
      )}
    />
  );
}
