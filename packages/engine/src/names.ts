/**
 * Makes `name` unique among `existing` with the spec's rule: append ' (n)', n counting from 1.
 * The name itself is returned when it is free.
 */
export function makeUniqueName(name: string, existing: Iterable<string>): string {
  const taken = existing instanceof Set ? (existing as Set<string>) : new Set(existing);
  if (!taken.has(name)) return name;
  for (let n = 1; ; n++) {
    const candidate = `${name} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}
