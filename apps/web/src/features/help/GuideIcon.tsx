import type { GuideId } from '@adloom/contract';

/** Each guide's icon: outline paths on a 24 × 24 grid, drawn with a 2 px round stroke. */
const ICON_PATHS: Record<GuideId, string[]> = {
  intro: ['M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0', 'M10 9l5 3l-5 3z'],
  'campaign-builder': ['M4 4h6v8h-6z', 'M4 16h6v4h-6z', 'M14 12h6v8h-6z', 'M14 4h6v4h-6z'],
  'data-table': [
    'M3 5a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v14a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2z',
    'M3 10h18',
    'M10 3v18',
  ],
  'lists-and-feeds': ['M9 6h11', 'M9 12h11', 'M9 18h11', 'M5 6v.01', 'M5 12v.01', 'M5 18v.01'],
  'campaign-template': ['M12 4l-8 4l8 4l8 -4z', 'M4 12l8 4l8 -4', 'M4 16l8 4l8 -4'],
  'rsa-templates': [
    'M3 7a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v10a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2z',
    'M7 15v-4a2 2 0 0 1 4 0v4',
    'M7 13h4',
    'M17 9v6h-1.5a1.5 1.5 0 1 1 1.5 -1.5',
  ],
  'live-previews': [
    'M10 12a2 2 0 1 0 4 0a2 2 0 0 0 -4 0',
    'M21 12c-2.4 4 -5.4 6 -9 6c-3.6 0 -6.6 -2 -9 -6c2.4 -4 5.4 -6 9 -6c3.6 0 6.6 2 9 6',
  ],
  'linking-sheets': [
    'M9 15l6 -6',
    'M11 6l.463 -.536a5 5 0 0 1 7.071 7.072l-.534 .464',
    'M13 18l-.397 .534a5.068 5.068 0 0 1 -7.127 0a4.972 4.972 0 0 1 0 -7.071l.524 -.463',
  ],
  'geo-feeds': [
    'M9 11a3 3 0 1 0 6 0a3 3 0 0 0 -6 0',
    'M17.657 16.657l-4.243 4.243a2 2 0 0 1 -2.827 0l-4.244 -4.243a8 8 0 1 1 11.314 0z',
  ],
};

/** A guide's icon in the wheel (decorative: the button beside it carries the name). */
export function GuideIcon({ id, size = 28 }: { id: GuideId; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {ICON_PATHS[id].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
