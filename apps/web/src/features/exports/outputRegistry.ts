import { createStore, type Store } from '../../state/store.ts';

interface ClientEntry {
  store: Store<unknown>;
  initial: unknown;
}

/**
 * The generated outputs of one builder workspace, each made on first use under its feature's
 * key. Client stores go back to their initial value whenever the client changes or is deleted
 * (`dropClient`, the one place that does it); session entries live as long as the workspace.
 */
export class OutputRegistry {
  private readonly clientEntries = new Map<string, ClientEntry>();
  private readonly sessionEntries = new Map<string, unknown>();
  /** How many times the client stores were reset. */
  private drops = 0;

  /** The store under `key` that holds one client's output, `initial` until it is set. */
  clientStore<T>(key: string, initial: T): Store<T> {
    let entry = this.clientEntries.get(key);
    if (!entry) {
      entry = { store: createStore<unknown>(initial), initial };
      this.clientEntries.set(key, entry);
    }
    return entry.store as Store<T>;
  }

  /** The entry under `key` kept for the workspace's whole session, made by `make` once. */
  session<T>(key: string, make: () => T): T {
    if (!this.sessionEntries.has(key)) this.sessionEntries.set(key, make());
    return this.sessionEntries.get(key) as T;
  }

  /** Resets every client store: the active client changed or was deleted. */
  dropClient(): void {
    this.drops += 1;
    for (const { store, initial } of this.clientEntries.values()) store.set(initial);
  }

  /**
   * Taken when a generation starts: whether its result still belongs in the client stores when
   * it ends (false once they were reset since: another client, the same one chosen again, a
   * client deleted, or a sign-out).
   */
  ownership(): () => boolean {
    const at = this.drops;
    return () => this.drops === at;
  }
}
