import type { FastifyInstance } from 'fastify';
import { API, FEEDBACK_THANKS_MESSAGE, FeedbackBodySchema } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { parseBody } from '../../http/validate.ts';
import { insertFeedback } from '../../db/workspace.ts';

/** POST /api/feedback (auth): type Issue, Idea or Other and a message of at least 10 characters. */
export default async function feedbackRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post(API.feedback, { onRequest: authenticate }, async (request) => {
    const user = getUser(request);
    await deps.limits.feedback.countAttempt(user.id);
    const body = parseBody(FeedbackBodySchema, request.body);
    await insertFeedback(deps.db, {
      userId: user.id,
      email: user.email,
      type: body.type,
      message: body.message,
    });
    return { message: FEEDBACK_THANKS_MESSAGE };
  });
}
