import type { FastifyRequest } from 'fastify';
import { findBadText, findTextProblem, mayHoldBadText } from '@adloom/contract';
import { validationError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a route's `*` param holds (e.g. 'name'), so its errors name the field. */
    wildcardField?: string;
  }
}

/** Requests whose JSON body text was scanned clean by its parser (see noteJsonBodyText). */
const cleanBodies = new WeakSet<FastifyRequest>();

/**
 * Called by the JSON parser (json-body.ts) with every body's text: when it holds no `\u`
 * escape, the parsed body cannot hold a NUL or a lone surrogate, and the walk over its (say
 * 200k) rows is skipped.
 */
export function noteJsonBodyText(request: FastifyRequest, jsonText: string): void {
  if (!mayHoldBadText(jsonText)) cleanBodies.add(request);
}

/**
 * The one text rule (the contract's `findBadText`) on a request's route params, query and
 * body: NUL or an unpaired surrogate anywhere is 400 validation_failed naming the field.
 */
export async function rejectBadText(request: FastifyRequest): Promise<void> {
  const problem =
    findBadText(request.params) ??
    findBadText(request.query) ??
    (cleanBodies.has(request) ? undefined : findBadText(request.body));
  if (problem?.path === '*') problem.path = request.routeOptions.config.wildcardField ?? '*';
  if (problem)
    throw validationError([
      problem.path ? { msg: problem.msg, path: problem.path } : { msg: problem.msg },
    ]);
}

/** The same rule for a value a route decodes itself (the client name in the URL). */
export function rejectBadTextField(path: string, value: string): void {
  const msg = findTextProblem(value);
  if (msg) throw validationError([{ msg, path }]);
}
