import {
  API,
  ClientListSchema,
  CreateClientAnswerSchema,
  clientPath,
  type ClientBundleAnswer,
  type CreateClientAnswer,
  type FeedsAnswer,
  type ListsAnswer,
} from '@adloom/contract';
import type { Feed } from '@adloom/engine';
import { http } from './client.ts';

/**
 * The workspace calls of spec section 7: clients, a client's bundle, feeds and lists. Callers
 * show the spec's own messages (`errors: 'caller'`) and hand server failures (5xx, 401) to the
 * generic handler themselves. Bundles and feed sets are not run through a schema: they hold up
 * to 250k rows each and the server presents them from validated data.
 */

export function listClients(): Promise<string[]> {
  return http.get(API.app.clients, { schema: ClientListSchema, errors: 'caller' });
}

export function createClient(name: string): Promise<CreateClientAnswer> {
  return http.post(
    API.app.clients,
    { name },
    { schema: CreateClientAnswerSchema, errors: 'caller' },
  );
}

/** Deletes a client; answers the remaining names. */
export function deleteClient(name: string): Promise<string[]> {
  return http.request(API.app.clients, {
    method: 'DELETE',
    body: { name },
    schema: ClientListSchema,
    errors: 'caller',
  });
}

export function loadClientBundle(name: string): Promise<ClientBundleAnswer> {
  return http.get<ClientBundleAnswer>(clientPath(name), { errors: 'caller' });
}

/** The whole feed set of a client; `revision` is the one loaded (omit it to overwrite). */
export function saveFeeds(body: {
  name: string;
  feeds: Feed[];
  revision?: number;
}): Promise<FeedsAnswer> {
  return http.post<FeedsAnswer>(API.app.feeds, body, { errors: 'caller' });
}

export function loadLists(): Promise<ListsAnswer> {
  return http.get<ListsAnswer>(API.app.lists, { errors: 'caller' });
}

/** The user's whole set of lists and data tables. */
export function saveLists(body: { feeds: Feed[]; revision?: number }): Promise<ListsAnswer> {
  return http.post<ListsAnswer>(API.app.lists, body, { errors: 'caller' });
}
