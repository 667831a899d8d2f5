import { useState } from 'react';
import { Button, List, Text, Title } from '@mantine/core';
import { convertLegacyAdTemplate, type AdTemplate, type RsaTemplate } from '@adloom/engine';
import { notifySuccess } from '../../state/notifications.ts';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import './LegacyAdsPanel.css';

/** Texts of the legacy expanded text ads panel. */
export const LEGACY_ADS_TEXTS = {
  title: 'Expanded text ads (legacy)',
  intro:
    'Google no longer accepts new expanded text ads. These templates are kept exactly as they are; convert one to a responsive search ad template to use it again.',
  convert: 'Convert to RSA template',
  converted: (legacy: string, names: readonly string[]) =>
    `"${legacy}" converted to the RSA ${names.length === 1 ? 'template' : 'templates'} ${names.map((n) => `"${n}"`).join(', ')}`,
} as const;

/** A one-line look at a legacy ad: its first fallback's headlines and first description. */
export function summarizeLegacyAd(template: AdTemplate): string {
  const first = template.templates[0]?.[0];
  if (!first) return 'Empty';
  const headlines = [first.h1, first.h2, first.h3].filter((h) => h.trim() !== '').join(' | ');
  const parts = [headlines, first.dl1].filter((p) => p.trim() !== '');
  return parts.length ? parts.join(' — ') : 'Empty';
}

function countFallbacks(template: AdTemplate): string {
  const versions = template.templates.length;
  const fallbacks = template.templates.reduce((n, v) => n + v.length, 0);
  const f = `${fallbacks} ${fallbacks === 1 ? 'fallback' : 'fallbacks'}`;
  return versions > 1 ? `${versions} versions, ${f}` : f;
}

/**
 * The client's legacy expanded text ad templates, listed under the responsive search ads (where
 * their successors live), each with 'Convert to RSA template': one step makes RSA templates of
 * it (made active and saved) and names what is left to fill in. The legacy templates are only
 * read, so every save keeps them as they are. Renders nothing when the client has none.
 */
export function LegacyAdsPanel() {
  const legacy = useTemplateSet('adTemplates');
  const rsa = useTemplateSet('rsaTemplates');
  const [notes, setNotes] = useState<{ index: number; lines: string[] } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  if (!legacy.hasClient || legacy.templates.length === 0) return null;

  async function handleConvert(template: AdTemplate, index: number) {
    setBusy(index);
    try {
      const converted = convertLegacyAdTemplate(
        template,
        rsa.templates.map((t: RsaTemplate) => t.name),
      );
      const names = converted.templates.map((t) => rsa.editor.add(t));
      setNotes({ index, lines: converted.notes });
      notifySuccess(LEGACY_ADS_TEXTS.converted(template.name, names));
      await rsa.editor.save({ isAutosave: true });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="legacy-ads" aria-labelledby="legacy-ads-title">
      <Title order={3} size="h5" id="legacy-ads-title">
        {LEGACY_ADS_TEXTS.title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {LEGACY_ADS_TEXTS.intro}
      </Text>
      <ul className="legacy-ads__list" aria-labelledby="legacy-ads-title">
        {legacy.templates.map((template, index) => (
          // Legacy names need not be unique: the position tells them apart.
          <li key={`${index}:${template.name}`} className="legacy-ads__item">
            <div className="legacy-ads__text">
              <Text fw={600} size="sm" className="legacy-ads__name">
                {template.name || '(no name)'}
              </Text>
              <Text
                size="xs"
                c="dimmed"
                className="legacy-ads__summary"
                title={summarizeLegacyAd(template)}
              >
                {countFallbacks(template)} · {summarizeLegacyAd(template)}
              </Text>
              {notes && notes.index === index && notes.lines.length > 0 ? (
                <List size="xs" className="legacy-ads__notes" aria-label="Still to fill in">
                  {notes.lines.map((line) => (
                    <List.Item key={line}>{line}</List.Item>
                  ))}
                </List>
              ) : null}
            </div>
            <Button
              size="xs"
              variant="light"
              loading={busy === index}
              aria-label={`${LEGACY_ADS_TEXTS.convert}: ${template.name}`}
              onClick={() => void handleConvert(template, index)}
            >
              {LEGACY_ADS_TEXTS.convert}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
