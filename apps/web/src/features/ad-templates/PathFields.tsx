import type { TextMeasurer } from '../validation/index.ts';
import { CountedInput } from './CountedInput.tsx';

/** The two display paths of an ad, each counted against `max`. */
export function PathFields({
  paths,
  max,
  measurer,
  onChange,
}: {
  paths: [string, string];
  max: number;
  measurer: TextMeasurer;
  onChange: (next: [string, string]) => void;
}) {
  return (
    <fieldset className="ad-field-list">
      <legend className="ad-field-list__legend">Paths</legend>
      <div className="ad-paths">
        {paths.map((path, index) => (
          <CountedInput
            key={index}
            label={`Path ${index + 1}`}
            value={path}
            max={max}
            measurer={measurer}
            onChange={(value) => {
              const next: [string, string] = [...paths];
              next[index] = value;
              onChange(next);
            }}
          />
        ))}
      </div>
    </fieldset>
  );
}
