/** Job tests' context: a local one, as the worker makes one (see localJobContext). */
export { localJobContext as testJobContext } from '../localJobContext.ts';
