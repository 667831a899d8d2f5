/** Tests only: an answer of a stubbed `fetch`, JSON with its status, as the server sends it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
