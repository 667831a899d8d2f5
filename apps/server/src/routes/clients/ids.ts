import { BUILD_MESSAGES, ResourceIdSchema } from '@adloom/contract';
import { AppError } from '../../errors.ts';

/** The client id of a route's params: not a UUID is 404, as a client nobody has. */
export function readClientId(params: unknown): string {
  const parsed = ResourceIdSchema.safeParse((params as { id?: unknown }).id);
  if (!parsed.success) throw new AppError('not_found', BUILD_MESSAGES.clientNotFound);
  return parsed.data.toLowerCase();
}

/** The build id of a route's params: not a UUID is 404, as a build nobody has. */
export function readBuildId(params: unknown): string {
  const parsed = ResourceIdSchema.safeParse((params as { buildId?: unknown }).buildId);
  if (!parsed.success) throw new AppError('not_found', BUILD_MESSAGES.buildNotFound);
  return parsed.data.toLowerCase();
}
