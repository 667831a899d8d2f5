import type { AiSuggestionType } from '@adloom/contract';
import type { PerformanceMaxTemplate, RsaTemplate } from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import {
  openFallback,
  PMAX_LIST_RULES,
  putInNextFree,
  RSA_LIST_RULES,
  setFallback,
} from '../ad-templates/index.ts';
import { useTemplateSet } from '../builder/useTemplateSet.ts';

/** Where Add puts a suggestion: a sentence saying so, and the add itself (null: not possible). */
export interface AddTarget {
  note: string;
  add: ((text: string) => void) | null;
}

const KIND_NAMES = { rsa: 'RSA', performance: 'Performance Max' } as const;

/**
 * Add to the open RSA or Performance Max fallback: the next free headline or description of
 * the fallback the open ad tab shows (an empty entry, or a new one while the list has room).
 */
export function useAddToFallback(type: AiSuggestionType): AddTarget {
  const open = useStore(openFallback);
  const rsa = useTemplateSet('rsaTemplates');
  const pmax = useTemplateSet('performanceMaxTemplates');
  const what = type === 'headlines' ? 'headline' : 'description';
  if (!open) {
    return {
      note: 'To add a suggestion, open a Responsive Search Ads or Performance Max template in the Campaign Builder.',
      add: null,
    };
  }
  const set = open.kind === 'rsa' ? rsa : pmax;
  const template = set.active;
  const fallback = template?.templates[open.index];
  if (!template || !fallback) {
    return { note: `Choose a ${KIND_NAMES[open.kind]} template to add suggestions to.`, add: null };
  }
  const rules = open.kind === 'rsa' ? RSA_LIST_RULES : PMAX_LIST_RULES;
  const place = `${KIND_NAMES[open.kind]} fallback ${open.index + 1}`;
  if (putInNextFree(fallback[type], rules[type], '') === null) {
    return { note: `${place} has no free ${what}.`, add: null };
  }
  return {
    note: `Add puts a suggestion into the next free ${what} of ${place}.`,
    add: (text) => {
      const list = putInNextFree(fallback[type], rules[type], text);
      if (!list) return;
      const next = { ...fallback, [type]: list };
      if (open.kind === 'rsa')
        rsa.update(setFallback(template as RsaTemplate, open.index, next as typeof fallback));
      else
        pmax.update(
          setFallback(template as PerformanceMaxTemplate, open.index, next as typeof fallback),
        );
    },
  };
}
